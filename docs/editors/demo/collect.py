"""Asks `rpsdsl lsp` what the pictures of docs/editors.md show, and writes
data.json for index.html: games/rps.rules with one typo (`winz`), its
diagnostic and quick fix, its semantic tokens, and the hover over `loop`.

Run from this folder after `cargo build --release`, then serve it with
monaco-editor beside it (`npm install monaco-editor@0.52.2`,
`python3 -m http.server`) and open index.html (#problem for the quick fix).
"""
import json, pathlib, shutil, subprocess

here = pathlib.Path(__file__).resolve().parent
repo = here.parents[2]
work = here / 'work'
(work / 'prelude').mkdir(parents=True, exist_ok=True)
shutil.copy(repo / 'games/prelude/rps.rules', work / 'prelude/rps.rules')
demo = work / 'rps_demo.rules'
demo.write_text((repo / 'games/rps.rules').read_text())
text = demo.read_text().replace('add 1 to wins of winner', 'add 1 to winz of winner')
uri = demo.as_uri()
p = subprocess.Popen([str(repo / 'target/release/rpsdsl'), 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b'Content-Length: %d\r\n\r\n' % len(b) + b); p.stdin.flush()
def recv():
    n = None
    while True:
        line = p.stdout.readline().decode().strip()
        if not line: break
        if line.startswith('Content-Length:'): n = int(line.split(':')[1])
    return json.loads(p.stdout.read(n))
def request(i, method, params):
    send({'jsonrpc': '2.0', 'id': i, 'method': method, 'params': params})
    while True:
        m = recv()
        if m.get('id') == i and 'method' not in m: return m
init = request(1, 'initialize', {'capabilities': {}, 'rootUri': work.as_uri()})
legend = init['result']['capabilities']['semanticTokensProvider']['legend']
send({'jsonrpc': '2.0', 'method': 'initialized', 'params': {}})
send({'jsonrpc': '2.0', 'method': 'textDocument/didOpen', 'params': {'textDocument': {'uri': uri, 'languageId': 'rpsdsl', 'version': 1, 'text': text}}})
while True:
    m = recv()
    if m.get('method') == 'textDocument/publishDiagnostics' and m['params']['uri'] == uri:
        diags = m['params']['diagnostics']; break
lines = text.split('\n')
row = next(i for i, l in enumerate(lines) if l.strip() == 'loop {')
col = lines[row].index('loop') + 1
hover = request(2, 'textDocument/hover', {'textDocument': {'uri': uri}, 'position': {'line': row, 'character': col}})
tokens = request(3, 'textDocument/semanticTokens/full', {'textDocument': {'uri': uri}})
actions = request(4, 'textDocument/codeAction', {'textDocument': {'uri': uri}, 'range': diags[0]['range'], 'context': {'diagnostics': diags}})
json.dump({'text': text, 'diagnostics': diags, 'hover': hover['result'], 'hoverAt': {'line': row, 'character': col},
           'legend': legend, 'tokens': tokens['result']['data'], 'actions': actions['result']}, open(here / 'data.json', 'w'), indent=1)
request(5, 'shutdown', None); send({'jsonrpc': '2.0', 'method': 'exit'})
print(diags[0]['message']); print(hover['result']['contents']['value'][:200])
