"""A device without a browser: Streamlit's own websocket messages, sent by hand to a running
server (what any device on the network can send, no code and no page needed).

``Device(port)`` opens ``/_stcore/stream``; ``run(query)`` asks for a page run with that query
string and returns the texts the run drew; ``clear_cache()`` sends the ``clear_cache``
back-message that the viewer toolbar only hides."""

from __future__ import annotations

import time

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

RUN_TIMEOUT = 60.0


class Device:
    def __init__(self, port: int) -> None:
        self._connection = connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"],
                                   open_timeout=RUN_TIMEOUT)
        self.ws = self._connection.__enter__()

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc) -> None:
        self._connection.__exit__(*exc)

    def run(self, query: str = "") -> str:
        """One page run with ``query`` (``game=…&code=…``); the run's drawn texts, joined."""
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = ""
        self.ws.send(msg.SerializeToString())
        return self._until_finished()

    def clear_cache(self) -> None:
        msg = BackMsg()
        msg.clear_cache = True
        self.ws.send(msg.SerializeToString())

    def _until_finished(self) -> str:
        texts: list[str] = []
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the page run did not finish")
            fwd = ForwardMsg()
            fwd.ParseFromString(self.ws.recv(timeout=left))
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                if which in ("markdown", "alert", "exception", "text"):
                    texts.append(str(getattr(element, which)))
            elif kind == "script_finished":
                return "\n".join(texts)
