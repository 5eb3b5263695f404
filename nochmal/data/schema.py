"""JSON Schemas of the data-file models, published in ``schemas/`` so that a person editing a
sheet file gets editor help (completion, validation).

The files are generated, never edited by hand; a test checks they are up to date. After
changing a data model, regenerate them with::

    python -m nochmal.data.schema

To publish the schema of another model, add it to :data:`SCHEMA_MODELS`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel

from nochmal.engine.coopdata import MissionFile, TableauSpec
from nochmal.engine.sheet import SHIPPED_ROOT, SheetSpec
from nochmal.engine.twentyone.sheets import SheetSpec as TwentyOneSheetSpec

SCHEMAS_DIR = SHIPPED_ROOT / "schemas"

#: file name in ``schemas/`` -> the pydantic model whose JSON Schema it holds
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "sheet.schema.json": SheetSpec,
    "tableau.schema.json": TableauSpec,
    "missions.schema.json": MissionFile,
    "twentyone-sheet.schema.json": TwentyOneSheetSpec,
}


def schemas() -> dict[str, dict]:
    """File name -> JSON Schema, for every published model."""
    return {name: model.model_json_schema() for name, model in SCHEMA_MODELS.items()}


def schema_text(schema: dict) -> str:
    """The exact text of a schema file: 2-space indent, sorted keys, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(directory: str | os.PathLike = SCHEMAS_DIR) -> list[Path]:
    """Write every schema into ``directory`` (created if missing); returns the files written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = directory / name
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - python -m nochmal.data.schema
    for p in write_schemas():
        print(f"wrote {p}")
