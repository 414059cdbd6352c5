"""A headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands in on fd 3, replies out on fd 4, each a
JSON message ended by a NUL byte). Python 3 standard library only.

    with Browser() as b:
        b.open("file:///tmp/report.html")
        b.eval("document.title")
        b.screenshot("/tmp/shot.png")
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


class BrowserError(RuntimeError):
    pass


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, width=1400, height=900, binary=None, timeout=60):
        self.binary = binary or chromium_binary()
        if not self.binary:
            raise BrowserError("no chromium on PATH (Debian package 'chromium', scripts/setup.sh)")
        self.width, self.height, self.timeout = width, height, timeout
        self.profile = tempfile.mkdtemp(prefix="fbc-chromium-")
        self._log = open(os.path.join(self.profile, "chromium.log"), "wb")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds():
            # fds 3 and 4 of the browser are the protocol pipe. The pipe's
            # own fds may be 3 or 4: move them out of the way first.
            r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [self.binary, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-sync", "--hide-scrollbars",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log,
            close_fds=False, preexec_fn=child_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next_id = 0
        self._events = []
        self.session = None
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            self.session = self.call("Target.attachToTarget",
                                     {"targetId": page["targetId"], "flatten": True})["sessionId"]
            self.call("Page.enable")
            self.call("Runtime.enable")
            self.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        except Exception:
            self.close()
            raise

    # ---------------------------------------------------------------- protocol

    def _send(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_chrome, data)
            data = data[n:]

    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no reply from chromium within %ds" % self.timeout)
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the protocol pipe (exit %s)" % self.proc.poll())
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=True):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self._send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def wait_event(self, method, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, ev in enumerate(self._events):
                if ev["method"] == method:
                    return self._events.pop(i)
            self._events.append(self._read_message(deadline))

    # ---------------------------------------------------------------- page

    def open(self, url):
        """Navigates and waits for the load event."""
        self._events = [e for e in self._events if e["method"] != "Page.loadEventFired"]
        reply = self.call("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise BrowserError("navigate %s: %s" % (url, reply["errorText"]))
        if "loaderId" in reply:  # none for a same-document (#fragment) navigation
            self.wait_event("Page.loadEventFired")

    def eval(self, expression):
        """The value of a JS expression (JSON-serialisable; promises awaited)."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError("page script error: %s" % d.get("exception", {}).get(
                "description", d.get("text")))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            v = self.eval(expression)
            if v:
                return v
            if time.monotonic() > deadline:
                raise BrowserError("timed out waiting for: " + expression)
            time.sleep(0.02)

    def console_errors(self):
        """Exceptions and console errors the page reported so far."""
        out = []
        for ev in self._events:
            if ev["method"] == "Runtime.exceptionThrown":
                out.append(ev["params"]["exceptionDetails"].get("text", "exception"))
            elif ev["method"] == "Runtime.consoleAPICalled" and ev["params"]["type"] == "error":
                out.append(" ".join(str(a.get("value", a.get("description", "")))
                                    for a in ev["params"]["args"]))
        return out

    def screenshot(self, path, full_page=False):
        params = {"format": "png"}
        if full_page:
            m = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": m["width"], "height": min(m["height"], 6000),
                              "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send({"id": 0, "method": "Browser.close"})
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
