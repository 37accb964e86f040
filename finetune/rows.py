"""The row formats written to disk: TRL's conversational SFT, preference (DPO) and unpaired (KTO) rows.

TRL reads ``messages`` for SFT, ``prompt``/``chosen``/``rejected`` for DPO and
``prompt``/``completion``/``label`` for KTO, each a list of ``{"role", "content"}`` turns; the
other fields (``id``, ``category``, ``provisions``, ``as_of``) are ours and TRL ignores them.
Rows are written with sorted keys and no trailing spaces, one per line, so that the same rows
always give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from finetune.judge import Category


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["system", "user", "assistant"]
    content: str = Field(min_length=1)


class ProvisionRef(BaseModel):
    model_config = ConfigDict(extra="forbid")

    act: str
    section: str


class SFTRow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    messages: list[Turn] = Field(min_length=3, max_length=3)
    category: Category
    provisions: list[ProvisionRef] = Field(min_length=1)
    as_of: str


class SFTPromptRow(BaseModel):
    """SFT as TRL's conversational prompt/completion: the loss falls on the completion only by default."""

    model_config = ConfigDict(extra="forbid")

    id: str
    prompt: list[Turn] = Field(min_length=2, max_length=2)
    completion: list[Turn] = Field(min_length=1, max_length=1)
    category: Category
    provisions: list[ProvisionRef] = Field(min_length=1)
    as_of: str


class DPORow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    prompt: list[Turn] = Field(min_length=2, max_length=2)
    chosen: list[Turn] = Field(min_length=1, max_length=1)
    rejected: list[Turn] = Field(min_length=1, max_length=1)
    category: Category | Literal["flag"]
    provisions: list[ProvisionRef]
    as_of: str


class KTORow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    prompt: list[Turn]
    completion: list[Turn] = Field(min_length=1, max_length=1)
    label: bool
    as_of: str
    flag_label: str | None = None
    comment: str | None = None


SPLITS = ("train", "eval")


def dump_line(row: BaseModel) -> str:
    return json.dumps(row.model_dump(mode="json"), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def write_jsonl(path: Path, rows: Iterable[BaseModel]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(dump_line(r) + "\n")
            n += 1
    tmp.replace(path)  # a reader never sees half a file; a re-run replaces it whole
    return n
