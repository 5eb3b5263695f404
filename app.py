"""nochmal app entry point: only routes pages (they live in nochmal/ui/pages/)."""

import streamlit as st

from nochmal.ui import follow, layout

layout.setup_page()
page = st.navigation(layout.pages())
end_box = layout.run(page)  # the sidebar, then the page
follow.page_ended(end_box)  # last: the run reached its end (see follow.py)
