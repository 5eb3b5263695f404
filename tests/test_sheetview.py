"""Unit tests of nochmal.ui.sheetview.sheet_html (pure HTML, no Streamlit)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from nochmal.engine.cells import CELL_NAMES, mask_of
from nochmal.engine.sheet import get_sheet
from nochmal.ui.sheetview import sheet_html

STD = get_sheet("standard")
COOP_I = get_sheet("coop-I")


class Cells(HTMLParser):
    """Collects every ``<td data-cell>``: its attributes and the text inside it, and every ``<th>`` text."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[str, dict] = {}
        self.headers: list[str] = []
        self._cell = None
        self._th = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "td" and "data-cell" in attrs:
            self._cell = attrs["data-cell"]
            self.cells[self._cell] = {"attrs": attrs, "text": ""}
        elif tag == "th":
            self._th = ""

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        elif tag == "th" and self._th is not None:
            self.headers.append(self._th)
            self._th = None

    def handle_data(self, data):
        if self._cell is not None:
            self.cells[self._cell]["text"] += data
        if self._th is not None:
            self._th += data


def parse(html: str) -> Cells:
    p = Cells()
    p.feed(html)
    return p


def test_105_cells_named_a1_to_o7():
    html = sheet_html(get_sheet("standard"))
    assert html.count("data-cell=") == 105
    assert list(parse(html).cells) == [f"{c}{r}" for r in range(1, 8) for c in "ABCDEFGHIJKLMNO"]
    assert set(parse(html).cells) == set(CELL_NAMES)


def test_stars_of_the_standard_sheet():
    cells = parse(sheet_html(get_sheet("standard"))).cells
    starred = sorted(name for name, c in cells.items() if "★" in c["text"])
    assert len(starred) == 15
    assert {"H1", "L1", "C2", "E2"} <= set(starred)  # "gggyyyyGbbbOyyy", "ogYgYyoor..."
    assert all(" star " in cells[n]["attrs"]["title"] for n in starred)
    assert "star" not in cells["A1"]["attrs"]["title"]


def test_crossed_cells_are_marked():
    crossed = mask_of(["H1", "H2", "A1"])
    cells = parse(sheet_html(get_sheet("standard"), crossed)).cells
    marked = sorted(n for n, c in cells.items() if "✕" in c["text"])
    assert marked == ["A1", "H1", "H2"]
    assert cells["H1"]["attrs"]["title"].endswith("crossed")
    assert "★" not in cells["H1"]["text"]  # a crossed star shows the cross
    assert cells["B1"]["attrs"]["title"].endswith("open")
    assert "opacity:0.55" in cells["A1"]["attrs"]["style"] and "opacity:1" in cells["B1"]["attrs"]["style"]


def test_selection_and_highlight_borders():
    cells = parse(sheet_html(get_sheet("standard"), selected=mask_of(["C3"]), highlight=mask_of(["H4"]))).cells
    assert "3px solid #111" in cells["C3"]["attrs"]["style"]
    assert "dashed" in cells["H4"]["attrs"]["style"]


def test_number_field_badges_1_to_6_on_coop_sheets():
    for sid in ("coop-I", "coop-II", "coop-VI"):
        sheet = get_sheet(sid)
        cells = parse(sheet_html(sheet)).cells
        badges = {n: re.sub(r"\D", "", c["text"]) for n, c in cells.items() if re.search(r"\d", c["text"])}
        expected = {f.cell: str(f.number) for f in sheet.spec.coop.number_fields}
        assert badges == expected
        assert sorted(badges.values()) == ["1", "2", "3", "4", "5", "6"]
        assert sheet_html(sheet).count("border-radius:50%") == 6
    assert "border-radius:50%" not in sheet_html(get_sheet("standard"))


def test_row_labels():
    coop = parse(sheet_html(get_sheet("coop-I"))).headers
    assert [h for h in coop if h in "PQRSTUV" and h] == list("PQRSTUV")
    base = parse(sheet_html(get_sheet("standard"))).headers
    assert [h for h in base if h.isdigit()] == [str(r) for r in range(1, 8)]
    assert [h for h in base if h.isalpha()] == list("ABCDEFGHIJKLMNO")


def test_colour_letters_in_colourblind_mode():
    sheet = get_sheet("standard")
    plain = parse(sheet_html(sheet)).cells
    assert not any(re.search("[YGBRO]", c["text"]) for c in plain.values())
    cells = parse(sheet_html(sheet, colourblind=True)).cells
    letters = "".join(re.sub("[^YGBRO]", "", cells[f"{c}1"]["text"]) for c in "ABCDEFGHIJKLMNO")
    assert letters == sheet.spec.grid[0].upper()
    assert cells["H1"]["text"] == "G★"


def test_title_and_compact():
    html = sheet_html(get_sheet("standard"), title="Mine <b>")
    assert "Mine &lt;b&gt;" in html and 'aria-label="Mine &lt;b&gt;"' in html
    assert "width:18px" in sheet_html(get_sheet("standard"), compact=True)
    assert "width:18px" not in html


def test_points_row():
    html = sheet_html(get_sheet("standard"))
    firsts = re.findall(r'<td style="text-align:center;font-size:\d+px">(\d+)<br>', html)
    assert list(map(int, firsts)) == list(get_sheet("standard").first_points)


# --------------------------------------------------------------------------- marks of the column values and colour bonuses (issue 19)
class Parsed(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tds: list[dict] = []
        self._td = None

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._td = {"attrs": dict(attrs), "html": ""}
            self.tds.append(self._td)
        elif self._td is not None:
            self._td["html"] += self.get_starttag_text()

    def handle_endtag(self, tag):
        if tag == "td":
            self._td = None
        elif self._td is not None:
            self._td["html"] += f"</{tag}>"

    def handle_data(self, data):
        if self._td is not None:
            self._td["html"] += data


def tds(html: str) -> list[dict]:
    p = Parsed()
    p.feed(html)
    return p.tds


def test_sheet_html_circles_and_strikes_column_values():
    marks = ["first", "later", "gone"] + [None] * 12
    html = sheet_html(STD, column_marks=marks)
    pts = [td for td in tds(html) if td["attrs"].get("title", "").startswith("column ")]
    assert len(pts) == 15
    a, b, c, d = pts[0]["html"], pts[1]["html"], pts[2]["html"], pts[3]["html"]
    assert re.match(r'<span style="[^"]*border-radius:50%[^"]*">5</span><br>', a)  # first value circled
    assert re.match(r'<span style="[^"]*line-through[^"]*">3</span><br><span style="[^"]*border-radius:50%', b)
    assert re.match(r'<span style="[^"]*line-through[^"]*">3</span><br><span style="opacity:.6">2</span>', c)
    assert "line-through" not in d and "border-radius" not in d
    assert pts[0]["attrs"]["data-mark"] == "first" and "completed first" in pts[0]["attrs"]["title"]
    assert "first value gone" in pts[2]["attrs"]["title"]


def test_sheet_html_colour_bonus_column_base_and_coop():
    html = sheet_html(STD, column_marks=[None] * 15, colour_marks=["first", "later", "gone", None, None])
    bonus = [td for td in tds(html) if "data-colour" in td["attrs"]]
    assert [td["attrs"]["data-colour"] for td in bonus] == ["yellow", "green", "blue", "red", "orange"]
    assert re.match(r'<span style="[^"]*border-radius:50%[^"]*">5</span>', bonus[0]["html"])
    assert "line-through" in bonus[1]["html"] and "border-radius:50%" in bonus[1]["html"]
    assert "line-through" in bonus[2]["html"] and bonus[3]["html"] == '5<br><span style="opacity:.6">3</span>'
    coop_html = sheet_html(COOP_I, colour_marks=["done", None, None, None, None], colour_bonus=(0, 0))
    bonus = [td for td in tds(coop_html) if "data-colour" in td["attrs"]]
    assert [td["html"] for td in bonus] == ["✓", "", "", "", ""]
    assert bonus[0]["attrs"]["title"] == "yellow completed"


def test_sheet_html_names_coop_cells_by_rows_P_to_V_and_stays_compatible():
    cells = {td["attrs"]["data-cell"]: td["attrs"] for td in tds(sheet_html(COOP_I)) if "data-cell" in td["attrs"]}
    assert cells["E2"]["title"].startswith("EQ ") and cells["E2"]["aria-label"] == cells["E2"]["title"]
    assert cells["H1"]["title"] == "HP green star open"
    std = {td["attrs"]["data-cell"]: td["attrs"] for td in tds(sheet_html(STD)) if "data-cell" in td["attrs"]}
    assert std["E3"]["title"].startswith("E3 ")
    # no marks given: the drawing is the same as before (no bonus column, plain values)
    assert sheet_html(STD) == sheet_html(STD, column_marks=None, colour_marks=None)
    assert "data-colour" not in sheet_html(STD) and "data-mark" not in sheet_html(STD)
