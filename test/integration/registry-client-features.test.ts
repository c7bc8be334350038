/**
 * Elicitation and roots against a real server from npm (@modelcontextprotocol/server-everything over
 * stdio): its elicitation form (strings with formats, numbers, booleans, single and multiple choices)
 * answered through the CLI's terminal prompt, defaults applied; declined when nobody can answer; roots
 * listed, and a change announced with roots/list_changed and seen by the server.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { askInTerminal } from '../../src/cli/elicit-prompt';
import { declineElicitation, type ElicitationRequest, type RootsSource } from '../../src/registry/client-features';
import { McpConnection } from '../../src/registry/connection';

const EVERYTHING = join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
const text = (r: { content: unknown }) => (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('elicitation from a real server', () => {
  it('asks the form in the terminal: typed answers, bad answers asked again, Enter takes the defaults', async () => {
    const seen: ElicitationRequest[] = [];
    let prompt = '';
    const conn = new McpConnection('everything', everything, {
      elicitation: (request, signal) => {
        seen.push(request);
        const out = new PassThrough();
        out.on('data', (c: Buffer) => (prompt += c.toString('utf8')));
        // Enter to answer; "Ada" for the name; "yes" for the checkbox; then "not-an-email" (refused), then Enter for every other field.
        const answers = ['', 'Ada', 'yes', '', 'not-an-email', '', ...Array(request.fields.length).fill('')];
        return askInTerminal(request, Readable.from([answers.join('\n') + '\n']), out, signal);
      },
    });
    try {
      assert.equal((await conn.start()).state, 'ready');
      const result = await conn.callTool('trigger-elicitation-request', {});
      assert.equal(seen.length, 1);
      const kinds = Object.fromEntries(seen[0].fields.map((f) => [f.name, f.kind]));
      assert.equal(kinds.name, 'text');
      assert.equal(kinds.check, 'boolean');
      assert.equal(kinds.untitledMultipleSelectEnum, 'multi');
      assert.equal(kinds.titledSingleSelectEnum, 'choice');
      assert.equal(kinds.titledMultipleSelectEnum, 'multi');
      assert.match(prompt, /asks: Please provide inputs/);
      assert.match(prompt, /must be an e-mail address/);
      const out = text(result);
      assert.match(out, /Ada/);
      assert.match(out, /It was a dark and stormy night\./); // a default, taken with Enter
      assert.match(out, /hero-1/);
      assert.match(out, /accept/i);
    } finally {
      await conn.close();
    }
  });

  it('declines when nobody can answer', async () => {
    const conn = new McpConnection('everything', everything, { elicitation: declineElicitation });
    try {
      await conn.start();
      assert.match(text(await conn.callTool('trigger-elicitation-request', {})), /decline/i);
    } finally {
      await conn.close();
    }
  });
});

describe('roots', () => {
  it('lists the roots and announces a change with roots/list_changed', async () => {
    let roots: Root[] = [{ uri: pathToFileURL(__dirname).href, name: 'tests' }];
    const listeners = new Set<() => void>();
    const source: RootsSource = { roots: () => roots, onDidChange: (l) => (listeners.add(l), () => listeners.delete(l)) };
    const conn = new McpConnection('everything', everything, { roots: source });
    try {
      assert.equal((await conn.start()).state, 'ready');
      assert.match(text(await conn.callTool('get-roots-list', {})), new RegExp(pathToFileURL(__dirname).href));
      roots = [{ uri: pathToFileURL(join(__dirname, '..')).href, name: 'test-folder' }];
      for (const l of listeners) l();
      // The server re-reads the roots when notified; wait for it to have done so.
      let now = '';
      for (let i = 0; i < 50 && !now.includes('test-folder'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        now = text(await conn.callTool('get-roots-list', {}));
      }
      assert.match(now, /test-folder/);
    } finally {
      await conn.close();
    }
    assert.equal(listeners.size, 0, 'close() unsubscribes from root changes');
  });
});
