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
/* a toast lies over whatever is under it, and a phone's screen is the sheet: a phone shows the news
   in its side column (table.phone_view) and a refusal next to the grid instead (issue 42, item 6) */
[data-testid=stToastContainer] { display: none !important; }
/* the grid's column and the side column side by side (a phone held sideways, a tablet): the side
   column is narrow, so an alert there (a refusal) spends no width on its icon and padding, and its
   words fill the lines instead of standing one to a line */
@media (min-width: 640px) {
  [class*=st-key-side-] [data-testid=stAlertContainer] { padding: .3rem .35rem !important; }
  [class*=st-key-side-] [data-testid=stAlertContainer] div:has(> span > [data-testid=stAlertDynamicIcon]) { display: none !important; }
  [class*=st-key-side-] [data-testid=stAlertContainer] [data-testid=stMarkdownContainer] { width: 100% !important; }
  [class*=st-key-side-] [data-testid=stAlertContainer] p { font-size: .8rem !important; line-height: 1.25 !important; hyphens: auto; overflow-wrap: break-word; }
  [class*=st-key-side-] [data-testid=stExpander] summary { padding: .2rem .35rem !important; }
}
@media (max-height: 520px) {
  header[data-testid=stHeader] { display: none !important; }
  [data-testid=stMainBlockContainer] { padding-top: .2rem !important; }
  [data-testid=stAppViewContainer] > section, [data-testid=stMain] { padding-top: 0 !important; }
}
</style>"""


def phone_css() -> str:
    return PHONE_CSS
