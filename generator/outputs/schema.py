"""The JSON Schema of a record file, generated from the models (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path

from generator.model.files import record_file_model

SCHEMA_PATH = Path("schemas/records.schema.json")


def schema_text() -> str:
    """The schema as committed: stable key order, UTF-8, one trailing newline.

    Built from the record-file model of the kinds registered now.
    """
    schema = record_file_model().model_json_schema()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "records.schema.json",
        **schema,
        "title": "Analysis record file",
        "description": "One YAML file of records/<system>/: any of the top-level keys below; "
        "the files of a folder are merged.",
    }
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
