"""Brute-force word checks shared by the calibration bench scripts' tests."""


def one_deletion_close(a: str, b: str) -> bool:
    """Some string reached from a and from b by deleting at most one letter from each."""
    fa = {a} | {a[:i] + a[i + 1:] for i in range(len(a))}
    fb = {b} | {b[:i] + b[i + 1:] for i in range(len(b))}
    return bool(fa & fb)
