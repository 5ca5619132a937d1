"""A tiny Chrome DevTools Protocol client over a minimal WebSocket (RFC 6455)
client, standard library only, for driving headless Chromium in tests.

  with Browser() as b:               # starts chromium; raises Skip if absent
      page = b.open("file:///tmp/report.html")
      page.evaluate("document.title")
      page.screenshot("shot.png")
      page.errors                    # console errors, exceptions, failed loads
"""
import base64, json, os, shutil, socket, struct, subprocess, tempfile, time, urllib.request


class Skip(Exception):
    pass


class WebSocket:
    def __init__(self, url, timeout=30):
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise IOError("websocket handshake: connection closed")
            head += chunk
        head, _, self.buf = head.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise IOError("websocket handshake refused: %r" % head[:200])

    def send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        n = len(data)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise IOError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise IOError("websocket closed by the browser")
            if opcode == 0x9:  # ping
                continue
            message += payload
            if b0 & 0x80:
                return message.decode("utf-8", "replace")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Page:
    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.events = []
        self.errors = []
        self.requests = []

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self._event(msg)

    def _event(self, msg):
        method, params = msg.get("method"), msg.get("params", {})
        self.events.append(method)
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = params.get("args", [])
            self.errors.append("console.%s: %s" % (params["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in args)))
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            self.errors.append("exception: %s %s" % (d.get("text", ""), d.get(
                "exception", {}).get("description", "")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            e = params["entry"]
            self.errors.append("log: %s %s" % (e.get("text", ""), e.get("url", "")))
        elif method == "Network.requestWillBeSent":
            self.requests.append(params.get("request", {}).get("url", ""))

    def wait_for(self, method, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            if method in self.events:
                return
            self._event(json.loads(self.ws.recv()))
        raise TimeoutError("no %s within %ss" % (method, timeout))

    def navigate(self, url):
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate failed: %s\n%s" % (
                r["exceptionDetails"].get("exception", {}).get("description"), expression))
        return r["result"].get("value")

    def screenshot(self, path, full_page=False):
        params = {"format": "png"}
        if full_page:
            m = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": m["width"], "height": m["height"],
                              "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, width=1400, height=1000):
        self.binary = find_chromium()
        if not self.binary:
            raise Skip("chromium not installed")
        self.size = (width, height)

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="cu2dcu-chromium-")
        args = [self.binary, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--hide-scrollbars", "--user-data-dir=" + self.profile,
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--window-size=%d,%d" % self.size, "about:blank"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        end = time.time() + 60
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if self.proc.poll() is not None:
                raise RuntimeError("chromium exited (%d): %s" % (
                    self.proc.returncode, self.proc.stderr.read().decode()[-2000:]))
            if time.time() > end:
                raise TimeoutError("chromium did not open its DevTools port")
            time.sleep(0.1)
        self.port = int(open(port_file).read().split()[0])
        return self

    def open(self, url):
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % self.port, timeout=10) as r:
            targets = json.load(r)
        target = next(t for t in targets if t.get("type") == "page")
        page = Page(target["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.call(domain + ".enable")
        page.navigate(url)
        return page

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
