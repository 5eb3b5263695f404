"""``nochmal boards``: generate or check the stand-in co-op sheets (:mod:`nochmal.data.boardgen`),
or scan a photo of a printed sheet (:mod:`nochmal.data.scan`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nochmal.cli import args as at
from nochmal.cli.terminal import printable
from nochmal.data.boardgen import (DEFAULT_COUNT, GENERATOR_SEED, MAX_CLI_COUNT, SHIPPED_PREFIX, check_shipped,
                                   write_coop_sheets)
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.sheet import BOARDS_DIR, get_sheet


def _cmd_generate(args) -> int:
    base = get_sheet(args.base).spec
    out = Path(args.out) if args.out is not None else _default_out()
    paths = write_coop_sheets(out, base=base, seed=args.seed, count=args.count, prefix=args.prefix)
    for p in paths:
        print(printable(p))  # the folder came from the user: no control characters to the terminal
    return 0


def _cmd_check(args) -> int:
    problems = check_shipped(Path(args.dir))
    for p in problems:
        print(printable(p), file=sys.stderr)
    if not problems:
        print(f"the shipped co-op sheets match the generator (seed {GENERATOR_SEED})")
    return 1 if problems else 0


def _cmd_scan(args) -> int:
    """``boards scan``: read a photo of a printed sheet; print what was read (``--json``: one
    line) and with ``--out`` write it as a sheet file (its id is the file's name)."""
    import json

    from nochmal.data import userdata
    from nochmal.data.scan.reader import ScanError, check_photo_size, scan_bytes

    path = Path(args.photo)
    try:
        check_photo_size(path.stat().st_size)  # before a huge file is read
        result = scan_bytes(path.read_bytes())
    except ScanError as err:
        raise ScanError(err.reason, f"{printable(path.name)}: {err.what}", err.advice) from None
    written = None
    if args.out is not None:
        out = Path(args.out)
        if not userdata.ID_PATTERN.match(out.stem):
            raise InvalidInputError(f"--out {printable(out.name)}: the file's name is the sheet's id, so it must be "
                                    "1-64 letters, digits, '-', '_' or '.' (starting with a letter or digit) "
                                    "before .toml")
        data = result.sheet_data(out.stem, source=f"scanned from the photo {path.name}")
        userdata.write_sheet_file(out, data, name="--out")
        written = out
    if args.json:
        line = result.to_json()
        if written is not None:
            line["written"] = str(written)
        print(json.dumps(line, ensure_ascii=True))
        return 0
    print(f"grid of {printable(path.name)} (upper case = star; columns A-O, rows 1-7 from the top):")
    for r, row in enumerate(result.grid, 1):
        print(f"  {r}  {row}")
    fields = ", ".join(f"{'?' if f.number is None else f.number} at {f.cell}" for f in result.number_fields)
    print(f"number fields: {fields or 'none (not a co-op back)'}")
    for problem in result.problems:
        print(f"check: {printable(problem)}")
    if written is not None:
        print(f"wrote {printable(written)} (provenance user; import it on the Sheets page or copy it into "
              "the user boards folder)")
    return 0


def _default_out() -> Path:
    from nochmal.engine.sheet import user_boards_dir

    return user_boards_dir()


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Register ``boards generate`` and ``boards check`` on an argparse sub-parser set. Every
    argument is checked by its ``type`` before anything is generated or written."""
    bp = subparsers.add_parser("boards", help="generate or check the stand-in co-op sheets, or scan a printed sheet")
    actions = bp.add_subparsers(dest="boards_action", required=True, metavar="ACTION")
    gen = actions.add_parser(
        "generate",
        help="derive stand-in co-op sheets from a verified sheet (seeded, reproducible)",
        description="Write stand-in co-op sheets derived by a few colour swaps from a sheet. "
        f"With the defaults (standard sheet, seed {GENERATOR_SEED}) this rebuilds the shipped "
        "boards/coop-I..VI files; other seeds get ids that name the seed.",
    )
    gen.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=GENERATOR_SEED)
    gen.add_argument("--count", type=at.int_in("--count", 1, MAX_CLI_COUNT), default=DEFAULT_COUNT,
                     help=f"number of sheets, 1-{MAX_CLI_COUNT} (default {DEFAULT_COUNT})")
    gen.add_argument("--out", type=at.output_folder("--out"), default=None,
                     help="directory to write to (default: the user boards directory)")
    gen.add_argument("--prefix", type=at.id_prefix, default=None,
                     help=f"id prefix (default {SHIPPED_PREFIX!r} for seed {GENERATOR_SEED}, else 'coop-s<seed>')")
    gen.add_argument("--base", type=at.sheet_id("--base"), default="standard",
                     help="id of the sheet to start from (default standard)")
    gen.set_defaults(func=_cmd_generate)
    chk = actions.add_parser("check", help="verify that boards/coop-*.toml equal the generator's output")
    chk.add_argument("--dir", type=at.existing_folder("--dir"), default=str(BOARDS_DIR),
                     help="boards directory (default: the shipped one)")
    chk.set_defaults(func=_cmd_check)
    scn = actions.add_parser(
        "scan", help="read a photo of a printed sheet (grid, stars, co-op number fields)",
        description="Find the 15 x 7 grid in a photo of a printed sheet (any pad: standard, extension or "
        "co-op back), correct perspective and light, and read every cell's colour, the stars and the co-op "
        "number fields. A photo that cannot be read is refused with what to try.")
    scn.add_argument("photo", metavar="PHOTO", type=at.existing_file("PHOTO", (".jpg", ".jpeg", ".png", ".webp")),
                     help="the photo (JPEG, PNG or WebP)")
    scn.add_argument("--json", action="store_true",
                     help='print one JSON line: {"grid": [7 strings of 15 letters, upper case = star], '
                     '"number_fields": [...], "confidence": [[...per cell...]], "problems": [...], ...}')
    scn.add_argument("--out", type=at.output_file("--out", (".toml",)), default=None,
                     help="also write the sheet as a .toml sheet file (provenance user, source 'scanned'); "
                     "its id is the file's name")
    scn.set_defaults(func=_cmd_scan)
    return bp
