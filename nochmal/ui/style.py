"""Page styles that depend on the device's role (pure: no streamlit import)."""

from __future__ import annotations

#: a seat's own device (a phone): no sidebar (its few links sit at the bottom of the page),
#: little padding, and in landscape (a phone held sideways: a low screen) no app header, so
#: the whole sheet fits on the screen without scrolling
PHONE_CSS = """<style>
section[data-testid=stSidebar], [data-testid=stSidebarCollapsedControl], [data-testid=stExpandSidebarButton] { display: none !important; }
[data-testid=stMainBlockContainer] { padding: 3.2rem .5rem 3rem !important; max-width: 100% !important; }
.st-key-phone-sheet { gap: .25rem !important; }
[data-testid=stMainBlockContainer] > div > [data-testid=stVerticalBlock] { gap: .4rem !important; }
[data-testid=stMainBlockContainer] [data-testid=stElementContainer]:has(> [data-testid=stHtml] > style:only-child),
[data-testid=stMainBlockContainer] [data-testid=stElementContainer]:has(> [data-testid=stMarkdown] style:only-child) { display: none !important; }
.st-key-phone-sheet [data-testid=stCaptionContainer] p { margin: 0 !important; line-height: 1.2 !important; }
[class*=st-key-side-] p, [class*=st-key-side-] [data-testid=stCaptionContainer] { font-size: .85rem !important; line-height: 1.3 !important; margin-bottom: 0 !important; }
/* Streamlit pulls a Markdown block up by its last paragraph's bottom margin (-1rem); with that
   margin gone the next block would be drawn over its last lines */
[class*=st-key-side-] [data-testid=stMarkdownContainer], [class*=st-key-side-] [data-testid=stCaptionContainer] { margin-bottom: 0 !important; }
/* a button's words never break inside a word (German "Ankreuzen" beside its icon): a little smaller */
[class*=st-key-side-] button p { white-space: nowrap !important; font-size: .85rem !important; }
[class*=st-key-side-] button { padding-left: .4rem !important; padding-right: .4rem !important; }
/* the "!" and failed-roll boxes wrap in the narrow column next to the grid */
[class*=st-key-side-] .nm-status > span { white-space: normal !important; display: inline-block; margin-bottom: 2px; }
@media (max-height: 520px) {
  header[data-testid=stHeader] { display: none !important; }
  [data-testid=stMainBlockContainer] { padding-top: .2rem !important; }
  [data-testid=stAppViewContainer] > section, [data-testid=stMain] { padding-top: 0 !important; }
}
</style>"""


def phone_css() -> str:
    return PHONE_CSS
