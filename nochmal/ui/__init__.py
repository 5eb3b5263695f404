"""The Streamlit app. The only package that imports streamlit; pages call engine functions."""
