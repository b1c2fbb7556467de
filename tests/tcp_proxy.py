"""A small TCP forwarder on 127.0.0.1 that a test can cut and restore, to stage an outage.

``cut()`` closes every forwarded connection and stops listening, so a new connection is refused
at once (as when a database host goes away); ``stall()`` drops them too but keeps accepting new
ones and never answers (as when a host hangs or a firewall drops packets); ``restore()`` goes back
to forwarding on the same port.
"""

from __future__ import annotations

import socket
import threading


class TcpProxy:
    """Forward 127.0.0.1:<port> to ``target`` until cut; restore at will."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.stalled = False
        self.accepted = 0
        self.port = self._listen(0)

    def _listen(self, port: int) -> int:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return listener.getsockname()[1]

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            if self.stalled:  # hold the connection open, silent
                with self._lock:
                    self._open.add(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open |= {client, upstream}
                self.accepted += 1
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                self._close(s)

    def _close(self, s: socket.socket) -> None:
        with self._lock:
            self._open.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def cut(self) -> None:
        """Stop listening and drop every forwarded connection."""
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        with self._lock:
            sockets = list(self._open)
        for s in sockets:
            self._close(s)

    def stall(self) -> None:
        """Drop every forwarded connection; accept new ones and never answer them."""
        self.stalled = True
        with self._lock:
            sockets = list(self._open)
        for s in sockets:
            self._close(s)

    def restore(self) -> None:
        """Forward again, listening on the same port."""
        self.stalled = False
        with self._lock:
            sockets = list(self._open)
        for s in sockets:  # connections held by a stall
            self._close(s)
        if self._listener is None:
            self._listen(self.port)

    def close(self) -> None:
        self.cut()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
