"""A scripted LSP session with rlx-lsp-server (test/Tools/rlx-lsp-server.test):
initialize, open a document with an invalid rlx op, print the diagnostics
the server publishes, hover over an rlx op, shut down. Each step waits for
its answer, with a timeout, so a silent server fails the test instead of
hanging it."""

import json
import subprocess
import sys
import threading
import queue

DOCUMENT = """func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.softmax %a axis = 3 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
"""
URI = "file:///tmp/rlx-lsp-session.mlir"

server = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
messages = queue.Queue()


def read_messages():
    while True:
        length = None
        while True:
            line = server.stdout.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        messages.put(json.loads(server.stdout.read(length)))


threading.Thread(target=read_messages, daemon=True).start()


def send(message):
    body = json.dumps(dict(message, jsonrpc="2.0")).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def wait_for(predicate):
    while True:
        message = messages.get(timeout=30)
        if predicate(message):
            return message


send({"id": 1, "method": "initialize",
      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
reply = wait_for(lambda m: m.get("id") == 1)
print("initialized:", "capabilities" in reply["result"])
send({"method": "initialized", "params": {}})
send({"method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": URI, "languageId": "mlir",
                                  "version": 1, "text": DOCUMENT}}})
published = wait_for(
    lambda m: m.get("method") == "textDocument/publishDiagnostics")
for diagnostic in published["params"]["diagnostics"]:
    start = diagnostic["range"]["start"]
    print(f"diagnostic {start['line']}:{start['character']}: "
          f"{diagnostic['message']}")
# The fixed document: no diagnostics, and hovering the softmax shows it.
send({"method": "textDocument/didChange",
      "params": {"textDocument": {"uri": URI, "version": 2},
                 "contentChanges": [{"text": DOCUMENT.replace("axis = 3",
                                                              "axis = 1")}]}})
published = wait_for(
    lambda m: m.get("method") == "textDocument/publishDiagnostics")
print("diagnostics after the fix:", len(published["params"]["diagnostics"]))
send({"id": 2, "method": "textDocument/hover",
      "params": {"textDocument": {"uri": URI},
                 "position": {"line": 1, "character": 10}}})
hover = wait_for(lambda m: m.get("id") == 2)
print("hover:", hover["result"]["contents"]["value"].replace("\n", " | "))
send({"id": 3, "method": "shutdown"})
wait_for(lambda m: m.get("id") == 3)
send({"method": "exit"})
print("exit code:", server.wait(timeout=30))
