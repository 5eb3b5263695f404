"""The app as the server runs it: ``app.py`` (which only routes the pages) inside Streamlit's
``st.App``, with the security headers of :mod:`nochmal.ui.headers` on every HTTP response, the route pages
follow their game through (:mod:`nochmal.ui.changes`), a public server's housekeeping (purge thread,
metrics route: :mod:`nochmal.ui.housekeeping`) and an unknown page address sent to the Start page
(:mod:`nochmal.ui.page_paths`).

``nochmal serve`` (and the browser tests) run ``streamlit run serve_app.py``: Streamlit finds the
``st.App`` assigned to ``app`` below and serves it with uvicorn. ``streamlit run app.py`` still
works and serves the same pages, without those headers."""

import streamlit as st
from starlette.middleware import Middleware

from nochmal.ui import changes, housekeeping
from nochmal.ui.headers import SecurityHeaders
from nochmal.ui.page_paths import UnknownPages

app = st.App("app.py", routes=changes.routes() + housekeeping.routes(), lifespan=housekeeping.lifespan,
             middleware=[Middleware(SecurityHeaders), Middleware(UnknownPages)])
