// Starts `rpsdsl lsp` for .rules files and house-rules .toml files: the
// language server gives diagnostics, hover, completion, rename, quick
// fixes, formatting and the code lens on the game line.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('rpsdsl').get('path') || 'rpsdsl';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'rpsdsl',
    'rpsdsl',
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: 'file', language: 'rpsdsl' },
        { scheme: 'file', language: 'toml' },
      ],
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
