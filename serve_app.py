"""The app as the server runs it: ``app.py`` (which only routes the pages) inside Streamlit's
``st.App``, with the security headers of :mod:`nochmal.ui.headers` on every HTTP response.

``nochmal serve`` (and the browser tests) run ``streamlit run serve_app.py``: Streamlit finds the
``st.App`` assigned to ``app`` below and serves it with uvicorn. ``streamlit run app.py`` still
works and serves the same pages, without those headers."""

import streamlit as st
from starlette.middleware import Middleware

from nochmal.ui.headers import SecurityHeaders

app = st.App("app.py", middleware=[Middleware(SecurityHeaders)])
