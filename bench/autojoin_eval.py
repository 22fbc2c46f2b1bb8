"""Auto-Join on the autojoin benchmark: precision, recall and F1 of the joined row pairs.

    python bench/autojoin_eval.py path/to/autojoin-benchmark bench/data/autojoin-extra \
        bench/data/autojoin-fresh bench/data/autojoin-fresh{2..44} \
        [--json OUT] [--cases a,b] [--split dev|validation|fresh|fresh2|...|fresh44|all] \
        [--before BASELINE_JSON[,MORE]]
    python bench/autojoin_eval.py --runs A.json,B.json --before C.json,D.json   # report only

Every folder given is a benchmark (one sub-folder per case). Cases are split into
development (tuned on) and validation (never tuned on) by :func:`split_of`, fixed before
any tuning: the thesis benchmark's cases by a hash of the case name (a third to
validation), the cases made by bench/autojoin_make_cases.py by the list ``DEV_EXTRA``, and
each fresh set (``FRESH_CASES``, ``FRESH2_CASES`` ... ``FRESH44_CASES``, one folder
bench/data/autojoin-fresh* each) whole: built blind and committed before any learner ran on
it, run once clean, development afterwards. bench/results/autojoin_splits.md tells each
split's history (its source pool, the round that ran it clean, when it became development).

Each case folder holds source.csv, target.csv and ground_truth.csv (the correct joined
rows: the source row's cells followed by the target row's cells). Auto-Join runs with no
hint (both directions, every column, as in thesis §4.7); its joined pairs (source row,
target row) are compared with the ground truth's. Rows are identified by their cells
(lower-cased, non-alphanumeric characters removed, so the few ground-truth rows whose
cells were retyped, e.g. "North Dakota" for "NorthDakota", still resolve; ground-truth rows
that match no row at all stay in G and count as misses).

Metrics as in §4.7.1: precision |G∩J|/|J|, recall |G∩J|/|G|, F1; a case with an empty
output is left out of the mean precision and counts 0 in the mean recall and F1. "AJ" is
Auto-Join with the constrained fuzzy join, "AJ-E" with equality only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402

_NON_ALNUM = re.compile(r"[\W_]+", re.UNICODE)

# The development / validation split (fixed before tuning; never change it to suit results).
# Cases made from the lake (bench/autojoin_make_cases.py) used for development:
DEV_EXTRA = {"dc_urlslug", "states_nospace", "weather_dates_groups_clt", "congress_suffix_groups",
             "congress_state_codes",   # added in round 3 to develop the short-value rule
             # added in round 4 to develop zero padding and keys over several columns:
             "fips_padding", "weather_parts_padded", "episode_codes_padded",
             # added in round 25 to develop the chance estimate of structured short codes:
             "countries_fips_codes", "countries_marc_codes", "countries_ds_codes",
             "countries_wmo_codes", "countries_itu_codes"}
EXTRA_CASES = DEV_EXTRA | {
    "marvel_urlslug", "nba_draft_ids", "nba_raptor_ids", "police_tracts_groups",
    "classic_rock_combined", "country_tld", "countries_nospace", "fight_songs_nospace",
    "rock_handles_nospace", "weather_dates_groups_sea", "senators_mixed_groups",
    "cabinet_names_groups"}
# Fresh validation (bench/autojoin_make_cases.py --fresh), never tuned on or looked at
# before the change they measure was fixed:
FRESH_CASES = {
    "m49_padding", "m49_flags", "candidates_state_iso", "births_iso_dates",
    "receivers_lastfirst", "commutations_lastfirst", "boxers_url_id", "bob_ross_episodes",
    "population_alpha3"}
# Second fresh validation (bench/autojoin_make_cases.py --fresh2), committed in round 4
# before any learner change of that round; never tuned on:
FRESH2_CASES = {
    "sots_filenames", "resignations_districts", "twitter_status_ids", "genius_song_urls",
    "college_majors_codes", "common_name_clean", "wc_fifa_codes", "fandango_films"}
# Third fresh validation (bench/autojoin_make_cases.py --fresh3), committed in round 5
# before any learner change of that round; never tuned on:
FRESH3_CASES = {
    "goose_retro_ids", "nfl_team_tickets", "nfl_event_home_team", "bechdel_crew_titles",
    "trump_trail_locations", "clinton_trail_locations", "favorables_media_names",
    "ncaa_men_women_schools"}
# Fourth fresh validation (bench/autojoin_make_cases.py --fresh4), committed in round 6
# before the learner was run on them; never tuned on:
FRESH4_CASES = {
    "redlining_murder_cities", "cousin_fifa_countries", "m49fr_gdp_codes", "gop_state_postal",
    "voter_state_urls", "mlb_allstar_game_ids", "antiquities_renamed", "trump_lawsuit_captions",
    "trumpworld_gdp_countries", "top_economies_gdp"}
# Fifth fresh validation (bench/autojoin_make_cases.py --fresh5), committed in round 7
# before the learner was run on them; its clean figure is the round-7 learner's (results,
# section 00); round 8 was tuned on it, so it is development evidence since:
FRESH5_CASES = {
    "turnout_county_states", "police_dept_states", "favorability_primary_names",
    "mueller_topline_dates", "primary_dates_approval", "house_seat_codes", "tenth_circuit_cites",
    "russia_defendants_lastfirst", "nba_tattoo_emails", "endorsement_labels",
    "airline_review_urls"}
# Sixth fresh validation (bench/autojoin_make_cases.py --fresh6), built apart from the learner
# and committed before any learner ran on them; run clean once (round-8 learner), then
# tuned on in round 9 (development since):
FRESH6_CASES = {
    "early_senate_marriage_dates", "food_survey_age_brackets", "food_survey_income_brackets",
    "lake_files_index_urls", "sleeping_alone_311_days", "candidate_events_lastfirst",
    "pepe_block_labels", "legislature_ocd_ids", "tennis_server_initials",
    "nfl_suspension_outlets", "guns_poll_end_dates", "commencement_president_names"}
# Seventh fresh validation (bench/autojoin_make_cases.py --fresh7), built apart from the
# learner and committed before any learner ran on them; run clean once (round 9's
# learner), tuned on since round 10:
FRESH7_CASES = {
    "love_actually_display_names", "masculinity_quake_income", "masculinity_quake_divisions",
    "nonvoters_steak_sex_codes", "love_actually_lastfirst", "nonvoters_income_dollars",
    "pulitzer_wikipedia_urls", "steak_census_divisions", "tarantino_letterboxd_urls",
    "unisex_decade_labels"}
# Eighth fresh validation (bench/autojoin_make_cases.py --fresh8), from tables shipped in pip
# packages and the standard library, built apart from the learner and committed before any
# learner ran on them; run clean (rounds 9 and 10), tuned on since round 11:
FRESH8_CASES = {
    "faa_airports_icao", "posix_locales_cldr", "holidays_seattle_weather",
    "http_status_requests_names", "holidays_pandas_federal_days", "us_states_iso_subdivisions",
    "airports_geo_uris", "cldr_bcp47_tags", "iso639_sil_urls", "html_numeric_references",
    "http_status_lines", "unicode_name_escapes"}
# Ninth fresh validation (bench/autojoin_make_cases.py --fresh9), unseen: from pip packages,
# the standard library and Debian's data files no earlier set read, built apart from the
# learner and committed before any learner ran on them; run clean (rounds 10 and 11), tuned
# on since round 12:
FRESH9_CASES = {
    "certifi_debian_ca_files", "stdlib_modules_typeshed_stubs",
    "glibc_supported_locale_sources", "duckdb_keywords_pygments_postgres",
    "certifi_openssl_fingerprints", "debian_apt_descriptions", "dpkg_arch_wildcards",
    "duckdb_function_signatures", "typeshed_stub_packages", "psl_reversed_domains",
    "codata_values_with_units"}
# Tenth fresh validation (bench/autojoin_make_cases.py --fresh10), unseen: from pip packages,
# the standard library and Debian's data files no earlier set read, built apart from the
# learner and committed before any learner ran on them; run clean (round 12), tuned on since
# round 14:
FRESH10_CASES = {
    "faker_colors_webcolors", "faker_colors_x11_names", "netbase_services_protocols",
    "openssl_reasons_ssl_alerts", "iana_tld_root_db_urls", "services_pcap_filters",
    "nanp_national_numbers", "pyarrow_compute_doc_urls", "austrian_postcode_lines",
    "future_import_statements", "errno_oserror_messages", "signal_kill_names"}
# Eleventh fresh validation (bench/autojoin_make_cases.py --fresh11), unseen: from pip
# packages, the standard library and Debian's data files no earlier set read, built apart
# from the learner and committed before any learner ran on them; run clean with the
# learners of rounds 13 and 14 (the same on every case), tuned on since round 15:
FRESH11_CASES = {
    "telnet_options_glibc", "socket_families_glibc", "pg_errcodes_psycopg2_constants",
    "pg_errcodes_psycopg2_exceptions", "pyspark_jar_files_poms", "base_passwd_id_groups",
    "cmake_command_doc_urls", "git_hook_sample_paths", "pyspark_maven_coordinates"}
# Twelfth fresh validation (bench/autojoin_make_cases.py --fresh12), unseen: from pip packages
# and Debian's data files that no earlier set's pool held, built apart from the learner and
# committed before any learner ran on them; run clean with the round-14 learner, tuned on
# since round 15:
FRESH12_CASES = {
    "altair_channel_classes", "altair_mark_methods", "gdb_syscalls_linux_numbers",
    "x11_event_masks_xcb", "gdb_syscall_man7_urls", "iproute2_dscp_nft_names",
    "jupyterlab_settings_paths", "perl_release_dates", "udev_pci_class_codes"}
# Thirteenth fresh validation (bench/autojoin_make_cases.py --fresh13), unseen: from pip
# packages, the standard library and Debian packages' data files that no earlier set's pool
# held, built apart from the learner and committed before any learner ran on them; run clean
# with the learners of rounds 14 and 15, tuned on since round 16:
FRESH13_CASES = {
    "gcloud_accessapproval_request_types", "gcloud_aiplatform_collections",
    "gl_functions_pfn_typedefs", "pickletools_opcodes_unpickler", "expat_reference_urls",
    "freetype_opentype_spec_urls", "node_abi_prebuild_tags", "playwright_device_viewports"}
# Fourteenth fresh validation (bench/autojoin_make_cases.py --fresh14), unseen: from pip
# packages, the standard library and Debian packages' data files that no earlier set's pool
# held, built apart from the learner and committed before any learner ran on them; never
# run, never tuned on:
FRESH14_CASES = {
    "libpng_info_read_support", "ast_nodes_unparser_methods", "idlelib_keys_menu_events",
    "idlelib_highlight_theme_elements", "adwaita_icon_paths", "ipython_magic_doc_urls",
    "libxslt_api_doc_urls", "prompt_toolkit_named_command_handlers"}
# Fifteenth fresh validation (bench/autojoin_make_cases.py --fresh15), unseen: from pip
# packages, the standard library and Debian packages' data files that no earlier set's pool
# held, built apart from the learner and committed before any learner ran on them; never
# run, never tuned on:
FRESH15_CASES = {
    "pycparser_nodes_generator_methods", "pyerrors_exceptions_builtins",
    "jinja2_filter_doc_urls", "packaging_spdx_license_urls", "pycparser_keyword_tokens",
    "setuptools_entry_point_modules"}
# Sixteenth fresh validation (bench/autojoin_make_cases.py --fresh16), unseen: from pip
# packages and Debian packages' data files that no earlier set's pool held, built apart from
# the learner and committed before any learner ran on them; never run, never tuned on:
FRESH16_CASES = {
    "alsa_card_aliases_config_files", "alsa_card_pcms_generic_files",
    "nettle_hash_digest_sizes", "pyzmq_constants_c_names", "valgrind_guest_state_offsets",
    "bs4_block_element_urls", "bleach_css_property_attributes", "gsettings_enum_c_values"}
# Seventeenth fresh set (bench/autojoin_make_cases.py --fresh17): from pip packages and
# Debian packages' files that no earlier set's pool held, built apart from the learner and
# committed before any learner ran on them; run clean with rounds 16-17, tuned on since 18:
FRESH17_CASES = {
    "cffi_opcodes_c_macros", "cffi_primitive_types_c_macros", "debugpy_dap_requests_handlers",
    "jupyter_lsp_specs_config_schemas", "pip_vendor_txt_modules",
    "rpcsvc_procedures_client_stubs", "debugpy_dap_typescript_interfaces",
    "jupyter_lsp_node_spec_npm_urls"}
# Eighteenth fresh set (bench/autojoin_make_cases.py --fresh18): from pip packages and
# Debian packages' files that no earlier set's pool held, built apart from the learner and
# committed before any learner ran on them; run clean with rounds 17-18, tuned on since 19:
FRESH18_CASES = {
    "avahi_server_factories_interface_files", "jupyterlab_server_api_handler_methods",
    "maven_pom_dependencies_repository_folders", "wadllib_json_resource_types",
    "avahi_dbus_qualified_members", "jupyterlab_server_api_local_urls",
    "narwhals_dataframe_qualified_names", "pycairo_enum_members_constants"}
# Nineteenth fresh validation (bench/autojoin_make_cases.py --fresh19), unseen: from pip
# packages and Debian packages' files that no earlier set's pool held, built apart from the
# learner and committed before any learner ran on them; never run, never tuned on:
FRESH19_CASES = {
    "pam_stack_lines_module_files", "tasn1_header_gtkdoc_links",
    "scp_dbus_interface_service_methods", "tqdm_parameters_man_options",
    "anyio_exports_qualified_names", "brotli_decoder_error_codes_enumerators",
    "uca_releases_descriptions", "rfc3987_grammar_abnf_rules"}
# Twentieth fresh validation (bench/autojoin_make_cases.py --fresh20), unseen: from Debian
# packages' files that no earlier set's pool held, built apart from the learner and
# committed before any learner ran on them; never run, never tuned on:
FRESH20_CASES = {
    "binutils_programs_links", "coreutils_info_sections_man_pages",
    "util_linux_completions_man_titles", "binutils_links_man_references",
    "coreutils_man_titles_info_nodes", "glib_compat_names_deprecations",
    "util_linux_man_titles_references", "wget_info_nodes_html_files"}
# Twenty-first fresh validation (bench/autojoin_make_cases.py --fresh21), unseen: from Debian
# packages' files and attrs that no earlier set's pool held, built apart from the learner and
# committed before any learner ran on them; never run, never tuned on:
FRESH21_CASES = {
    "bc_html_headings_info_nodes", "curl_man_options_zsh_specs",
    "login_defs_man_variables_file", "openssh_programs_man_titles",
    "attrs_validators_doc_urls", "man_db_man_titles_references",
    "openssh_man_titles_references", "procps_sysctl_keys_proc_paths"}
# Twenty-second fresh validation (bench/autojoin_make_cases.py --fresh22), unseen: from Debian
# packages' files, mmh3 and the standard library's poplib that no earlier set's pool held,
# built apart from the learner and committed before any learner ran on them; never run, never
# tuned on:
FRESH22_CASES = {
    "ed_man_options_info_entries", "mmh3_stub_functions_c_functions",
    "pkgconf_m4_manual_macros", "ctags_man_files_titles", "ed_info_nodes_html_files",
    "poplib_methods_pop3_commands", "ctags_man_titles_references"}
# Twenty-third fresh validation (bench/autojoin_make_cases.py --fresh23), unseen: from pip
# packages of the venv and the standard library's hashlib and importlib that no earlier set's
# pool held, built apart from the learner and committed before any learner ran on them; never
# run, never tuned on:
FRESH23_CASES = {
    "hashlib_algorithms_openssl_functions", "asttokens_api_doc_urls",
    "datasketch_exports_doc_urls", "json5_dumps_parameters_options",
    "notebook_shim_traits_config_names", "importlib_magic_numbers_cache_tags"}

# Twenty-fourth fresh validation (bench/autojoin_make_cases.py --fresh24), unseen: from Debian
# packages' files and the standard library's urllib that no earlier set's pool held, built
# apart from the learner and committed before any learner ran on them; never run, never tuned
# on:
FRESH24_CASES = {
    "adduser_conf_items_script_keys", "debianutils_man_files_titles",
    "net_tools_man_files_titles", "net_tools_programs_man_pages",
    "urllib_handler_methods_schemes", "adduser_getoptions_specs_options",
    "debconf_confmodule_functions_commands", "urllib_netloc_schemes_url_prefixes"}

# Twenty-fifth fresh validation (bench/autojoin_make_cases.py --fresh25), unseen: from Debian
# packages' files that no earlier set's pool held, built apart from the learner and committed
# before any learner ran on them; never run, never tuned on:
FRESH25_CASES = {
    "appstream_metainfo_languages_catalogs", "fakeroot_man_files_programs",
    "fakeroot_man_files_titles", "ucf_man_options_case_patterns",
    "zutty_man_options_usage_listing", "zutty_man_options_xrdb_keys",
    "dmsetup_dmstats_commands_macros"}


# Twenty-sixth fresh validation (bench/autojoin_make_cases.py --fresh26), unseen: from pip
# packages of the venv and the standard library's modules n to z that no earlier set's pool
# held, built apart from the learner and committed before any learner ran on them; never run,
# never tuned on:
FRESH26_CASES = {
    "anywidget_record_files_modules", "tomllib_compiled_files_sources",
    "jupyter_builder_traits_command_line", "rpds_stub_members_qualified_names",
    "numbers_operators_reflected_methods", "pkgutil_exports_qualified_names",
    "trace_options_namespace_attributes"}


# Twenty-seventh fresh validation (bench/autojoin_make_cases.py LAKE OUT --fresh27), unseen:
# from the lake tables that no earlier set used, built apart from the learner and committed
# before any learner ran on them; never run, never tuned on:
FRESH27_CASES = {
    "most_common_surnames_case", "college_majors_title_case", "gop_targets_us_dates",
    "impeachment_polls_iso_dates", "allstar_players_bbref_urls", "murder_2016_city_state",
    "raptor_players_last_first", "bechdel_cast_last_first"}


# Twenty-eighth fresh validation (bench/autojoin_make_cases.py OUT --fresh28), unseen: from
# Debian packages that no earlier set read, built apart from the learner and committed before
# any learner ran on them; never run, never tuned on:
FRESH28_CASES = {
    "pool_man_titles_page_files", "notification_daemon_credits_desktop_names",
    "notification_daemon_changelog_news_versions", "x11_xserver_utils_pages_programs",
    "build_essential_changelog_apt_versions", "chromium_master_preferences_pref_names",
    "osslsigncode_changelog_apt_versions", "ssl_cert_ssleay_cnf_references"}


# Twenty-ninth fresh validation (bench/autojoin_make_cases.py OUT --fresh29), unseen: from
# Debian lib* packages that no earlier set read, built apart from the learner and committed
# before any learner ran on them; never run, never tuned on:
FRESH29_CASES = {
    "pulseaudio_changelog_news_sections", "xcomposite_synopsis_man_links",
    "xext_synopsis_man_links", "debuginfod_environment_variable_names",
    "editline_emacs_bindings_editrc", "gdk_pixbuf_thumbnailer_mime_icons"}


# Thirtieth fresh validation (bench/autojoin_make_cases.py OUT --fresh30), unseen: from
# Debian lib* packages that fresh29's pool set aside and no earlier set read, built apart
# from the learner and committed before any learner ran on them; never run, never tuned on:
FRESH30_CASES = {
    "acl_changelog_upstream_releases", "libarchive_changelog_news_releases",
    "absl_library_links_linker_options", "acl_changelog_dep14_tags",
    "aom_changelog_dep14_tags", "apparmor_changelog_dsc_files"}


# Thirty-first fresh validation (bench/autojoin_make_cases.py OUT --fresh31), unseen: from
# the Debian packages not named lib* that no earlier set named or read, built apart from the
# learner and committed before any learner ran on them; never run, never tuned on:
FRESH31_CASES = {
    "jq_changelog_authors", "jq_authors_git_idents", "pycups_news_sdist_files",
    "distro_metadata_classifier_urls", "wheel_bdist_options_attributes"}


# Thirty-second fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh32),
# unseen: from npm packages that list data and that no earlier set named or read, built apart
# from the learner and committed before any learner ran on them; never run, never tuned on:
FRESH32_CASES = {
    "hf_inference_inputs_task_folders", "cssdb_titles_css_functions",
    "hf_agent_harness_github_repos", "netlify_plugins_npm_pages",
    "binary_extensions_gitattributes", "confusing_globals_eslint_messages",
    "commit_types_changelog_headings", "cssdb_support_browserslist_queries"}


# Thirty-third fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh33),
# unseen: from npm and PyPI packages that map or tabulate data and that no earlier set named
# or read, built apart from the learner and committed before any learner ran on them; run
# once clean (round 29), development since:
FRESH33_CASES = {
    "cloudcheck_provider_classes_files", "waaskirf_species_mendeleev_elements",
    "mendeleev_elements_ciaaw_weights", "snappy_census_classes_sqlite_tables",
    "cspell_fullstack_words_directives", "interpret_loaders_node_require",
    "irregular_plurals_pluralize_rules", "courts_db_courtlistener_api"}


# Thirty-fourth fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh34),
# unseen: from Debian packages not installed here that tabulate or list data and that no
# earlier set named or read, built apart from the learner and committed before any learner
# ran on them:
FRESH34_CASES = {
    "facterdb_facts_files", "wordnet_sense_keys_lexnames", "dict_wn_headwords_dict_urls",
    "logcheck_rule_files_paths", "node_reserved_words_ts_errors",
    "phpunit_resource_functions_manual_urls", "wordnet_adverb_lemmas_display",
    "wordnet_sense_keys_nltk_calls"}

# Thirty-fifth fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh35),
# unseen: from Debian's science data packages that no earlier set named or read, built apart
# from the learner and committed before any learner ran on them:
FRESH35_CASES = {
    "kstars_interesting_openngc", "stellarium_dso_names_openngc",
    "augustus_species_parameter_files", "chemical_structures_pubchem_urls",
    "chip_seq_accessions_fasta_deflines", "gbrowse_human_cytobands_iscn",
    "gdal_grib2_parameters_eccodes_keys", "eccodes_centres_location_indicators"}

# Thirty-sixth fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh36),
# unseen: from Debian's electronics and hamradio packages that no earlier set named or read,
# built apart from the learner and committed before any learner ran on them:
FRESH36_CASES = {
    "fcc_pool_questions_fccexam_files", "gputils_headers_linker_scripts",
    "kicad_footprints_3d_models", "kicad_symbols_footprint_files", "pcb_rnd_actions_help_files",
    "chirp_radios_class_ids", "cqrlog_contests_adif_fields", "fccexam_questions_header_lines"}

# Thirty-seventh fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh37),
# unseen: from Debian's GAP, Octave and PARI/GP packages (section math) that no earlier set
# named or read, built apart from the learner and committed before any learner ran on them:
FRESH37_CASES = {
    "debian_octave_packages_folders", "octave_arduino_index_files", "octave_bim_index_files",
    "octave_matgeom_index_files", "ctbllib_tables_gap_calls", "tomlib_tables_gap_calls",
    "transgrp_groups_gap_calls", "galpol_groups_gp_calls"}

# Thirty-eighth fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh38),
# unseen: from PyPI's font, glyph and icon packages that no earlier set named or read, built
# apart from the learner and committed before any learner ran on them:
FRESH38_CASES = {
    "glyphsets_archive_definitions", "faicons_icons_fontawesome_svgs",
    "fontawesome_icons_brand_modules", "pymupdf_fonts_descriptors_modules",
    "faicons_icons_svg_calls", "silk_icons_flask_urls", "os2_unicode_ranges_css",
    "glyphdata_production_names"}

# Thirty-ninth fresh validation (bench/autojoin_make_cases.py DOWNLOADS OUT --fresh39),
# unseen: from Maven Central's jars (the machine image's local Maven repository) that no
# earlier set named or read, built apart from the learner and committed before any learner
# ran on them:
FRESH39_CASES = {
    "spotless_jdt_lockfiles", "woodstox_exports_folders", "jna_platform_exports_folders",
    "bsh_command_usage_files", "osgi_api_types_classes", "osgi_profiles_files",
    "woodstox_exports_module_directives", "jna_native_code_launch_properties"}

# Fortieth fresh validation (bench/autojoin_make_cases.py TOOLCHAIN OUT --fresh40), unseen:
# from the Rust 1.95.0 toolchain's components (the machine image's rustup installation) that
# no earlier set read, built apart from the learner and committed before any learner ran on
# them:
FRESH40_CASES = {
    "cargo_bash_options_man_pages", "cargo_commands_man_pages", "cargo_config_keys_environment",
    "cargo_cfg_variables_reference_options", "edition_guide_lints_rustc_listing",
    "clippy_categories_deny_attributes", "clippy_lint_configuration_toml",
    "rust_std_libraries_extern_flags"}

# Forty-first fresh validation (bench/autojoin_make_cases.py FOLDER OUT --fresh41), unseen:
# from the CUDA 13.0 toolkit's PyPI wheels (the machine image's installation in one folder)
# that no earlier set read, built apart from the learner and committed before any learner ran
# on them:
FRESH41_CASES = {
    "cub_batch_memcpy_includes_headers", "cub_merge_includes_headers",
    "cuda_jit_options_runtime_enum", "cuda_launch_attributes_runtime_enum",
    "cudaegl_functions_cupti_cbids", "cudagl_functions_cupti_cbids",
    "nvidia_wheels_pip_requirements", "ompt_inquiry_functions_lookups"}

# Forty-second fresh validation (bench/autojoin_make_cases.py FOLDER OUT --fresh42), unseen:
# from the PyTorch 2.13.0+cpu and 2.14.1 wheels (read as zip archives, never installed) that
# no earlier set read, built apart from the learner and committed before any learner ran on
# them:
FRESH42_CASES = {
    "aten_functions_op_headers", "variable_functions_stub_op_headers",
    "aten_functions_registration_schemas", "cpp_activation_modules_python_classes",
    "return_types_namedtuple_declarations", "aten_header_includes_header_units",
    "dispatch_keys_library_impl_macros", "record_python_files_module_names"}

# Forty-third fresh validation (bench/autojoin_make_cases.py FOLDER OUT --fresh43), unseen:
# from PyPI wheels read as zip archives (cantera, ezdxf, pyscf, lm_eval, ortools, pysam,
# ale_py and wasmtime, never installed) that no earlier set read, built apart from the
# learner and committed before any learner ran on them:
FRESH43_CASES = {
    "cantera_constants_python_names", "dimstyle_attributes_header_variables",
    "gaussian_solvents_smd_descriptors", "lm_eval_task_index_readmes",
    "math_opt_proto_enums_python_enums", "pysam_config_htslib_defines",
    "ale_legacy_games_rom_hashes", "wasmtime_bindings_config_setters"}

# Forty-fourth fresh validation (bench/autojoin_make_cases.py FOLDER OUT --fresh44), unseen:
# from PyPI wheels read as zip archives (pybullet, pygame_ce, glfw, soundfile, cmeel_qhull,
# pillow and scikit_learn, never installed) whose members no earlier set read, built apart
# from the learner and committed before any learner ran on them:
FRESH44_CASES = {
    "a1_urdf_meshes_record_files", "pygame_examples_readme_files", "glfw_functions_c_names",
    "qhull_io_reentrant_declarations", "pil_plugins_image_formats",
    "sklearn_min_dependencies_requirements", "soundfile_release_dates_us",
    "qhull_changes_release_dates_iso"}


def split_of(case: str) -> str:
    """"dev", "validation", "fresh", "fresh2", ... or "fresh44": a fresh case
    by FRESH_CASES, FRESH2_CASES, ... or FRESH44_CASES, a made case by DEV_EXTRA, any other (the thesis benchmark's 21) by sha256 of its name: validation when
    the digest is divisible by 3."""
    fresh = (("fresh", FRESH_CASES), ("fresh2", FRESH2_CASES), ("fresh3", FRESH3_CASES),
             ("fresh4", FRESH4_CASES), ("fresh5", FRESH5_CASES), ("fresh6", FRESH6_CASES),
             ("fresh7", FRESH7_CASES), ("fresh8", FRESH8_CASES), ("fresh9", FRESH9_CASES),
             ("fresh10", FRESH10_CASES), ("fresh11", FRESH11_CASES), ("fresh12", FRESH12_CASES),
             ("fresh13", FRESH13_CASES), ("fresh14", FRESH14_CASES), ("fresh15", FRESH15_CASES),
             ("fresh16", FRESH16_CASES), ("fresh17", FRESH17_CASES), ("fresh18", FRESH18_CASES),
             ("fresh19", FRESH19_CASES), ("fresh20", FRESH20_CASES), ("fresh21", FRESH21_CASES),
             ("fresh22", FRESH22_CASES), ("fresh23", FRESH23_CASES),
             ("fresh24", FRESH24_CASES), ("fresh25", FRESH25_CASES), ("fresh26", FRESH26_CASES),
             ("fresh27", FRESH27_CASES), ("fresh28", FRESH28_CASES),
             ("fresh29", FRESH29_CASES), ("fresh30", FRESH30_CASES),
             ("fresh31", FRESH31_CASES), ("fresh32", FRESH32_CASES),
             ("fresh33", FRESH33_CASES), ("fresh34", FRESH34_CASES),
             ("fresh35", FRESH35_CASES), ("fresh36", FRESH36_CASES),
             ("fresh37", FRESH37_CASES), ("fresh38", FRESH38_CASES),
             ("fresh39", FRESH39_CASES), ("fresh40", FRESH40_CASES),
             ("fresh41", FRESH41_CASES), ("fresh42", FRESH42_CASES),
             ("fresh43", FRESH43_CASES), ("fresh44", FRESH44_CASES))
    for name, cases in fresh:      # in this order
        if case in cases:
            return name
    if case in EXTRA_CASES:
        return "dev" if case in DEV_EXTRA else "validation"
    digest = int(hashlib.sha256(case.encode()).hexdigest(), 16)
    return "validation" if digest % 3 == 0 else "dev"


def norm_cell(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return _NON_ALNUM.sub("", str(v).lower())


def norm_row(cells) -> tuple:
    return tuple(norm_cell(v) for v in cells)


def read_case(folder: Path):
    def read(name):
        return pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False,
                           na_values=[""], encoding="utf-8")
    return read("source"), read("target"), read("ground_truth")


def ground_truth_pairs(source: pd.DataFrame, target: pd.DataFrame, gt: pd.DataFrame):
    """G as a set of (normalized source row, normalized target row), and how many ground
    truth rows name a row that is not in the table."""
    ns = source.shape[1]
    if gt.shape[1] != ns + target.shape[1]:
        raise ValueError(f"ground truth has {gt.shape[1]} columns, expected "
                         f"{ns} + {target.shape[1]}")
    src_rows = {norm_row(r) for r in source.itertuples(index=False)}
    tgt_rows = {norm_row(r) for r in target.itertuples(index=False)}
    g, missing = set(), 0
    for r in gt.itertuples(index=False):
        s, t = norm_row(r[:ns]), norm_row(r[ns:])
        if s not in src_rows or t not in tgt_rows:
            missing += 1
        g.add((s, t))
    return g, missing


def score(pred: set, g: set) -> dict:
    hit = len(pred & g)
    p = hit / len(pred) if pred else None
    r = hit / len(g) if g else 0.0
    f = 2 * p * r / (p + r) if p and r else 0.0
    return {"precision": p, "recall": r, "f1": f, "joined": len(pred), "correct": hit}


def predicted_pairs(aj, source, target, fuzzy: bool) -> set:
    if not aj.found:
        return set()
    s_rows = [norm_row(r) for r in source.itertuples(index=False)]
    t_rows = [norm_row(r) for r in target.itertuples(index=False)]
    return {(s_rows[i], t_rows[j]) for i, j in aj.pairs(fuzzy=fuzzy)}


def run_case(folder: Path, **options) -> dict:
    source, target, gt = read_case(folder)
    g, missing = ground_truth_pairs(source, target, gt)
    t0, c0 = time.perf_counter(), time.process_time()
    aj = autojoin(source, target, left_name="source", right_name="target", **options)
    pairs_aj = predicted_pairs(aj, source, target, fuzzy=True)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    pairs_e = predicted_pairs(aj, source, target, fuzzy=False)
    out = {"case": folder.name, "rows": [len(source), len(target)], "gt_pairs": len(g),
           "gt_unresolved": missing, "seconds": seconds, "cpu_seconds": cpu,
           "found": aj.found,
           "AJ": score(pairs_aj, g), "AJ-E": score(pairs_e, g)}
    if aj.found:
        out.update({"direction": f"{aj.source_name} -> {aj.target_name}",
                    "program": aj.program.describe(), "target_column": aj.target_column,
                    "target_program": aj.target_program.describe() if aj.target_program else None,
                    "fuzzy": aj.fuzzy.describe() if aj.fuzzy else None,
                    "fuzzy_estimated_precision": (aj.fuzzy.estimated_precision
                                                  if aj.fuzzy else None),
                    "coverage": f"{aj.coverage}/{aj.target_keys}",
                    "estimated_precision": getattr(aj, "estimated_precision", None),
                    "precision_basis": getattr(aj, "precision_basis", None),
                    "partial": bool(aj.stats.get("partial"))})
    else:
        out["message"] = aj.message
    return out


def summarize(results: list, method: str) -> dict:
    ps = [r[method]["precision"] for r in results if r[method]["precision"] is not None]
    return {"precision": statistics.mean(ps) if ps else 0.0,
            "recall": statistics.mean(r[method]["recall"] for r in results),
            "f1": statistics.mean(r[method]["f1"] for r in results)}


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def _summary_lines(results: list, label: str, before: dict) -> list:
    aj, aje = summarize(results, "AJ"), summarize(results, "AJ-E")
    secs = sorted(r["seconds"] for r in results)
    cpu = sorted(r["cpu_seconds"] for r in results)
    zero = sum(1 for r in results if r["AJ"]["f1"] == 0)
    old = [before[r["case"]] for r in results if r["case"] in before]
    if old and len(old) == len(results):
        then = (f"{summarize(old, 'AJ')['f1']:.4f} | "
                f"{sum(r['cpu_seconds'] for r in results) / sum(o['cpu_seconds'] for o in old):.2f}")
    else:
        then = "- | -"
    return [f"| {label} | {len(results)} | {aj['precision']:.4f} | {aj['recall']:.4f} | "
            f"{aj['f1']:.4f} | {aje['f1']:.4f} | {zero} | {statistics.median(secs):.2f} | "
            f"{statistics.median(cpu):.2f} | {max(secs):.2f} | {then} |"]


# How each fresh set is to be read in the report, newest first: clean figures only until a
# round tuned on it (bench/results/autojoin.md says which round saw what).
FRESH_LABELS = [
    ("fresh44", "fresh44 (clean for main at bfa55da; development from the next round)"),
    ("fresh43", "fresh43 (clean for main at 20eec9d; development since)"),
    ("fresh42", "fresh42 (clean for main at 196c32a; development since)"),
    ("fresh41", "fresh41 (clean for main at 84deacf; development since)"),
    ("fresh40", "fresh40 (clean for main at ce57d19; development since)"),
    ("fresh39", "fresh39 (clean for main at 88d296e; development since)"),
    ("fresh38", "fresh38 (clean for main at b55b733; development since)"),
    ("fresh37", "fresh37 (clean for main at 1dd00a1; development since)"),
    ("fresh36", "fresh36 (clean for main at 1802b30; development since)"),
    ("fresh35", "fresh35 (clean for main at c0f13e8; development since)"),
    ("fresh34", "fresh34 (clean for round 31; development since)"),
    ("fresh33", "fresh33 (clean for round 29; development since)"),
    ("fresh32", "fresh32 (clean for round 27; development since)"),
    ("fresh31", "fresh31 (clean for round 26; development since)"),
    ("fresh30", "fresh30 (clean for round 24; tuned on since round 26)"),
    ("fresh29", "fresh29 validation (never tuned on)"),
    ("fresh28", "fresh28 validation (never tuned on)"),
    ("fresh27", "fresh27 (clean for round 21; tuned on since round 22)"),
    ("fresh26", "fresh26 (clean for round 21; tuned on since round 22)"),
    ("fresh25", "fresh25 (clean for round 21; tuned on since round 22)"),
    ("fresh24", "fresh24 (clean for round 20; tuned on since round 21)"),
    ("fresh23", "fresh23 (clean for round 20; tuned on since round 21)"),
    ("fresh22", "fresh22 (clean for round 19; tuned on since round 20)"),
    ("fresh21", "fresh21 (clean for round 19; tuned on since round 20)"),
    ("fresh20", "fresh20 (clean for round 19; tuned on since round 20)"),
    ("fresh19", "fresh19 (clean for rounds 17-19; tuned on since round 20)"),
    ("fresh18", "fresh18 (clean for rounds 17-18; tuned on since round 19)"),
    ("fresh17", "fresh17 (clean for rounds 16-17; tuned on since round 18)"),
    ("fresh16", "fresh16 (clean through round 19; development since round 20)"),
    ("fresh15", "fresh15 (clean through round 19; development since round 20)"),
    ("fresh14", "fresh14 (clean through round 19; development since round 20)"),
    ("fresh13", "fresh13 (clean for rounds 14-15; tuned on since round 16)"),
    ("fresh12", "fresh12 (clean for round 14; tuned on since round 15)"),
    ("fresh11", "fresh11 (clean for rounds 13-14; tuned on since round 15)"),
    ("fresh10", "fresh10 (clean for round 12; tuned on since round 14)"),
    ("fresh9", "fresh9 (clean for rounds 10-11; tuned on since round 12)"),
    ("fresh8", "fresh8 (clean for rounds 9-10; tuned on since round 11)"),
    ("fresh7", "fresh7 (clean once; seen and tuned on since round 10)"),
    ("fresh6", "fresh6 (seen and tuned on since round 9)"),
    ("fresh5", "fresh5 (seen and tuned on since round 8)"),
    ("fresh4", "fresh4 validation"),
    ("fresh3", "fresh3 validation"),
    ("fresh2", "fresh2 validation"),
]


def markdown(results: list, before: dict | None = None) -> str:
    """Per-case table and means by split; ``before``: case -> result of a baseline run (its
    F1 and the CPU-time ratio are shown next to this run's)."""
    before = before or {}
    lines = ["| split | case | rows (src/tgt) | G | AJ P | AJ R | AJ F1 | F1 before | AJ-E F1 | coverage | est. P | time (s) | CPU (s) | CPU / before | program |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order = {"fresh5": 0, "fresh4": 1, "fresh3": 2, "fresh2": 3, "fresh": 4, "validation": 5,
             "dev": 6}
    order["fresh6"] = -1
    order["fresh7"] = -2
    order["fresh8"] = -3
    order["fresh9"] = -4
    order["fresh10"] = -5
    order["fresh11"] = -6
    order["fresh12"] = -7
    order["fresh13"] = -8
    order["fresh14"] = -9
    order["fresh15"] = -10
    order["fresh16"] = -11
    order["fresh17"] = -12
    order["fresh18"] = -13
    order["fresh19"] = -14
    order["fresh20"] = -15
    order["fresh21"] = -16
    order["fresh22"] = -17
    order["fresh23"] = -18
    order["fresh24"] = -19
    order["fresh25"] = -20
    order["fresh26"] = -21
    order["fresh27"] = -22
    order["fresh28"] = -23
    order["fresh29"] = -24
    order["fresh30"] = -25
    order["fresh31"] = -26
    order["fresh32"] = -27
    order["fresh33"] = -28
    order["fresh34"] = -29
    order["fresh35"] = -30
    order["fresh36"] = -31
    order["fresh37"] = -32
    order["fresh38"] = -33
    order["fresh39"] = -34
    order["fresh40"] = -35
    order["fresh41"] = -36
    order["fresh42"] = -37
    order["fresh43"] = -38
    order["fresh44"] = -39
    for r in sorted(results, key=lambda r: (order[r["split"]], r.get("benchmark", ""), r["case"])):
        prog = r.get("program") or "(none) " + r.get("message", "")[:80]
        if r.get("target_program"):
            prog += f"  =  {r['target_program']}"
        prog = prog.replace("|", "\\|")
        est = r.get("estimated_precision")
        old = before.get(r["case"])
        f1_then = fmt(old["AJ"]["f1"]) if old else "-"
        ratio = f"{r['cpu_seconds'] / old['cpu_seconds']:.2f}" if old and old["cpu_seconds"] else "-"
        lines.append(f"| {r['split']} | {r['case']} | {r['rows'][0]}/{r['rows'][1]} | {r['gt_pairs']} | "
                     f"{fmt(r['AJ']['precision'])} | {fmt(r['AJ']['recall'])} | "
                     f"{fmt(r['AJ']['f1'])} | {f1_then} | {fmt(r['AJ-E']['f1'])} | "
                     f"{r.get('coverage', '-')} | {fmt(est)} | {r['seconds']:.2f} | "
                     f"{r['cpu_seconds']:.2f} | {ratio} | "
                     f"{r.get('direction', '')}: `{prog}` |")
    lines += ["", "| cases | n | AJ mean P | AJ mean R | AJ mean F1 | AJ-E mean F1 | F1 = 0 | "
              "median s | median CPU s | max s | mean F1 before | CPU / before |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    groups = [(label, [r for r in results if r["split"] == split])
              for split, label in FRESH_LABELS]
    groups += [("fresh validation + validation",
                [r for r in results if r["split"] in ("fresh", "validation")]),
               ("fresh validation", [r for r in results if r["split"] == "fresh"]),
               ("validation, all", [r for r in results if r["split"] == "validation"]),
               ("validation, made from the lake", [r for r in results if r["split"] == "validation"
                                                   and r["case"] in EXTRA_CASES]),
               ("validation, thesis benchmark", [r for r in results if r["split"] == "validation"
                                                 and r["case"] not in EXTRA_CASES]),
               ("development, all", [r for r in results if r["split"] == "dev"]),
               ("thesis benchmark, both splits", [r for r in results if r["case"] not in EXTRA_CASES
                                                  and r["split"] in ("dev", "validation")]),
               ("all cases", results)]
    for label, rs in groups:
        if rs:
            lines += _summary_lines(rs, label, before)
    return "\n".join(lines)


def _least_cpu(paths: str) -> dict:
    """case -> result, from one or more --json outputs (comma-separated): per case the run
    with the least CPU time (the learner is seeded, so P, R, F1 and programs are equal)."""
    out: dict = {}
    for path in paths.split(","):
        for r in json.loads(Path(path).read_text()):
            if r["case"] not in out or r["cpu_seconds"] < out[r["case"]]["cpu_seconds"]:
                out[r["case"]] = r
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", type=Path, nargs="*",
                    help="benchmark folder(s) (one sub-folder per case)")
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--split", choices=("all", "dev", "validation", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                                        "fresh7", "fresh8", "fresh9", "fresh10", "fresh11",
                                        "fresh12", "fresh13", "fresh14", "fresh15",
                                        "fresh16", "fresh17", "fresh18", "fresh19",
                                        "fresh20", "fresh21", "fresh22", "fresh23", "fresh24",
                                        "fresh25", "fresh26", "fresh27", "fresh28",
                                        "fresh29", "fresh30", "fresh31", "fresh32",
                                        "fresh33", "fresh34", "fresh35", "fresh36",
                                        "fresh37", "fresh38", "fresh39", "fresh40", "fresh41",
                                        "fresh42", "fresh43", "fresh44"),
                    default="all",
                    help="run only the development, validation or fresh validation cases")
    ap.add_argument("--json", type=Path, help="write per-case results here")
    ap.add_argument("--no-fuzzy", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", help="no run: report the --json outputs given (comma-separated; "
                    "per case the run with the least CPU time)")
    ap.add_argument("--before", help="--json output(s) of a baseline run: its F1 and "
                    "the CPU-time ratio are shown per case")
    args = ap.parse_args(argv)
    cases = []
    for path in args.paths:
        if not path.is_dir():
            ap.error(f"{path} is not a folder")
        cases += sorted(p for p in path.iterdir() if (p / "ground_truth.csv").exists())
    if args.cases:
        want = set(args.cases.split(","))
        cases = [p for p in cases if p.name in want]
    if args.split != "all":
        cases = [p for p in cases if split_of(p.name) == args.split]
    results = []
    if args.runs:
        results = list(_least_cpu(args.runs).values())
        cases = []
    for folder in cases:
        r = run_case(folder, fuzzy=not args.no_fuzzy, seed=args.seed)
        r["benchmark"] = folder.parent.name
        r["split"] = split_of(folder.name)
        results.append(r)
        print(f"{r['split'][:3]} {r['case']:28s} F1 {r['AJ']['f1']:.3f} (AJ-E {r['AJ-E']['f1']:.3f}) "
              f"{r['seconds']:.2f}s cpu {r['cpu_seconds']:.2f}s  "
              f"{r.get('program') or r.get('message', '')[:100]}",
              file=sys.stderr, flush=True)
    before = None
    if args.before:
        before = _least_cpu(args.before)
    print(markdown(results, before))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
