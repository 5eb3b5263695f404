"""Co-op data files (``missions/``): mission tableaus (one per player count) and the five
missions, as frozen pydantic models. Every tableau value carries its ``provenance``.

A user tableau (``$NOCHMAL_HOME/tableaus`` or the user data folder, or a file given with
``--tableau``) overrides the shipped one for its player count.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from nochmal.engine import tomlin
from nochmal.engine.errors import DataFileError, InvalidInputError
from nochmal.engine.contract import validated
from nochmal.engine.sheet import (
    MAX_TEXT_LENGTH,
    SHIPPED_ROOT,
    Name,
    PlainText,
    StrictInt,
    read_data_file,
    toml_line,
    user_boards_dir,
)

MISSIONS_DIR = SHIPPED_ROOT / "missions"
ValueProvenance = Literal["rulebook", "derived", "user"]
N_TURNS = 27  # C-LEN
CHECK_TURNS = (10, 19, 27)


class TableauValue(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    value: Annotated[StrictInt, Field(ge=0, le=200)]
    provenance: ValueProvenance


TABLEAU_KEYS = ("goal_10", "penalty_10_jokers", "goal_19", "goal_27",
                "m1_colours", "m2_rows", "m3_colours", "m4_rows", "m5_colours")


class TableauSpec(BaseModel):
    """The mission tableau for one player count (C-TRACK, C-GOAL-*, mission counts)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
    name: Name
    players: Annotated[StrictInt, Field(ge=1, le=6)]
    track: tuple[Annotated[StrictInt, Field(ge=1, le=6)], ...] = ()
    goal_10: TableauValue
    penalty_10_jokers: TableauValue
    goal_19: TableauValue
    goal_27: TableauValue
    m1_colours: TableauValue
    m2_rows: TableauValue
    m3_colours: TableauValue
    m4_rows: TableauValue
    m5_colours: TableauValue

    @model_validator(mode="after")
    def _check(self) -> "TableauSpec":
        if self.track:
            if len(self.track) != N_TURNS:
                raise ValueError(f"track: lists {len(self.track)} seats, a track has {N_TURNS} (C-TRACK)")
            if max(self.track) > self.players:
                raise ValueError(f"track: names seat {max(self.track)} but the tableau is for {self.players} players")
        for key in ("m1_colours", "m3_colours", "m5_colours"):
            if getattr(self, key).value > 5:
                raise ValueError(f"{key}: only five colours exist")
        for key in ("m2_rows", "m4_rows"):
            if getattr(self, key).value > 7:
                raise ValueError(f"{key}: a sheet has seven rows P-V")
        if not self.goal_10.value <= self.goal_19.value <= self.goal_27.value:
            raise ValueError("goal_10 <= goal_19 <= goal_27 must hold")
        return self

    def value(self, key: str) -> int:
        return getattr(self, key).value

    def provenance_summary(self) -> str:
        provs = {getattr(self, k).provenance for k in TABLEAU_KEYS}
        if provs == {"rulebook"}:
            return "rulebook"
        return "+".join(p for p in ("rulebook", "derived", "user") if p in provs)

    def active_seat(self, turn_index: int) -> int:
        """0-based seat active in turn ``turn_index + 1`` (C-TRACK; DECISION: round-robin)."""
        if self.track:
            return self.track[turn_index] - 1
        return turn_index % self.players


RequirementKind = Literal["colours", "rows", "star_columns", "number_fields", "sequence"]


class Requirement(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: RequirementKind
    count: Literal["m1_colours", "m2_rows", "m3_colours", "m4_rows", "m5_colours"] | None = None
    number: Annotated[StrictInt, Field(ge=0, le=7)] | None = None
    columns: Annotated[str, Field(pattern=r"^[A-O]{1,15}$")] | None = None

    @model_validator(mode="after")
    def _check(self) -> "Requirement":
        needs_count = self.kind in ("colours", "rows")
        if needs_count and (self.count is None) == (self.number is None):
            raise ValueError(f"a {self.kind} requirement needs exactly one of count (a tableau key) or number")
        if self.kind == "sequence" and not self.columns:
            raise ValueError("a sequence requirement needs columns, e.g. \"NOCHMAL\"")
        return self


class MissionSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    id: Annotated[StrictInt, Field(ge=1, le=99)]
    name: Name
    summary: Annotated[PlainText, Field(max_length=MAX_TEXT_LENGTH)]
    requirements: Annotated[tuple[Requirement, ...], Field(min_length=1)]


class MissionFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    mission: tuple[MissionSpec, ...]

    @field_validator("mission")
    @classmethod
    def _unique_ids(cls, missions: tuple[MissionSpec, ...]) -> tuple[MissionSpec, ...]:
        seen: set[int] = set()
        for m in missions:
            if m.id in seen:
                raise ValueError(f"mission id {m.id} appears more than once: every mission needs its own id")
            seen.add(m.id)
        return missions


def _read_toml(path: Path) -> dict:
    return read_data_file(path)


def tableau_from_data(data: dict, path: object = "<data>") -> TableauSpec:
    return validated(TableauSpec, data, path)


def load_tableau_file(path: str | os.PathLike) -> TableauSpec:
    return tableau_from_data(_read_toml(Path(path)), path)


def user_tableaus_dir() -> Path:
    return user_boards_dir().parent / "tableaus"


def tableau_path(players: int) -> Path:
    user = user_tableaus_dir() / f"tableau-{players}.toml"
    return user if user.is_file() else MISSIONS_DIR / f"tableau-{players}.toml"


def get_tableau(players: int) -> TableauSpec:
    """The tableau for ``players`` (a user file overrides the shipped stand-in)."""
    if not isinstance(players, int) or not 1 <= players <= 6:
        raise InvalidInputError(f"co-op games take 1-6 players, got {players!r}", rule="C-BOARDS")
    spec = load_tableau_file(tableau_path(players))
    if spec.players != players:
        raise DataFileError(tableau_path(players), [f"field players: is {spec.players}, the file is for {players}"])
    return spec


def tableau_to_toml(spec: TableauSpec) -> str:
    """The file text of a tableau (every value written by tomli-w, see
    :func:`~nochmal.engine.sheet.toml_value`); it always reads back as ``spec``."""
    lines = [toml_line("id", spec.id), toml_line("name", spec.name), toml_line("players", spec.players)]
    if spec.track:
        lines.append(toml_line("track", spec.track))
    for k in TABLEAU_KEYS:
        v = getattr(spec, k)
        lines.append(toml_line(k, {"value": v.value, "provenance": v.provenance}))
    text = "\n".join(lines) + "\n"
    if TableauSpec.model_validate(tomlin.loads(text)) != spec:  # pragma: no cover - guards the layout above
        raise DataFileError(f"<tableau {spec.id}>", ["the file text would not read back as the tableau"])
    return text


def load_missions(path: str | os.PathLike | None = None) -> dict[int, MissionSpec]:
    p = Path(path) if path else MISSIONS_DIR / "missions.toml"
    data = _read_toml(p)
    f = validated(MissionFile, data, p)
    return {m.id: m for m in f.mission}


def get_mission(mission_id: int) -> MissionSpec:
    missions = load_missions()
    if mission_id not in missions:
        raise InvalidInputError(f"unknown mission {mission_id!r}: missions are {', '.join(map(str, sorted(missions)))}")
    return missions[mission_id]
