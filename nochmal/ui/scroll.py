"""Bring the top of the page into view (a phone whose sheet moved out of sight while it
entered the roll). A hidden Custom Component (``st.components.v2``): trusted code of ours,
no data of a user's in it."""

from __future__ import annotations

import streamlit as st

JS = """
export default function (component) {
  const d = component.data || {};
  if (!d.at) return undefined;
  const main = document.querySelector('[data-testid=stMain]');
  if (main) main.scrollTo({ top: 0 });
  window.scrollTo({ top: 0 });
  return undefined;
}
"""

_component = st.components.v2.component("nochmal_scroll_top", js=JS, isolate_styles=True)


def scroll_to_top(when: str, key: str = "nm-scroll-top") -> None:
    """Scroll to the top once for each new value of ``when`` (e.g. the roll just entered)."""
    st.html("<style>.st-key-nm-scroll-slot { display: none !important; }</style>")
    with st.container(key="nm-scroll-slot"):
        _component(key=key, data={"at": when}, width="stretch", height="content")
