"""What frames every page of the app: the browser tab's title (``nochmal.ui.layout.PAGE_TITLE``)
is the app's, not co-op only, in the page's language; Streamlit's Deploy button and developer menu
are hidden (``client.toolbarMode`` in ``.streamlit/config.toml``; the browser side is
``tests/browser/test_browser_toolbar.py``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_browser_tab_title_is_not_co_op_only():
    from nochmal.data import i18n
    from nochmal.ui.layout import PAGE_TITLE

    titles = [PAGE_TITLE]
    with i18n.using("de"):
        titles.append(i18n._(PAGE_TITLE))
    assert titles[1] != titles[0], titles  # the tab speaks the page's language
    assert all("co-op" not in t.lower() and "koop" not in t.lower() and "mission" not in t.lower() for t in titles), \
        titles


def test_config_hides_deploy_and_the_developer_menu():
    from streamlit import config

    cfg = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert cfg["client"]["toolbarMode"] == "viewer"
    assert '"viewer"' in config._config_options_template["client.toolbarMode"].description
