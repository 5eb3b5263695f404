"""nochmal app entry point: only routes pages (they live in nochmal/ui/pages/)."""

import streamlit as st

from nochmal.ui import layout

layout.setup_page()
page = st.navigation(layout.pages())
layout.sidebar(page)
page.run()
layout.end_of_run()
