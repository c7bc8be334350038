import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserCommands } from '../../src/cli/browser';

const url = 'https://auth.example.com/authorize?state=s';

describe('browserCommands', () => {
  it('uses the system opener without BROWSER', () => {
    assert.deepEqual(browserCommands(url, {}, 'linux'), [['xdg-open', url]]);
    assert.deepEqual(browserCommands(url, {}, 'darwin'), [['open', url]]);
    assert.deepEqual(browserCommands(url, {}, 'win32'), [['rundll32', 'url.dll,FileProtocolHandler', url]]);
  });

  it('honours BROWSER: a list of command lines, %s replaced or the URL appended', () => {
    assert.deepEqual(browserCommands(url, { BROWSER: 'firefox' }, 'linux'), [['firefox', url]]);
    assert.deepEqual(browserCommands(url, { BROWSER: "'/opt/my browser/run' --new-tab %s:lynx" }, 'linux'), [['/opt/my browser/run', '--new-tab', url], ['lynx', url]]);
    assert.deepEqual(browserCommands(url, { BROWSER: 'node follow.mjs;chrome' }, 'win32'), [['node', 'follow.mjs', url], ['chrome', url]]);
    assert.deepEqual(browserCommands(url, { BROWSER: '  ' }, 'linux'), [['xdg-open', url]]);
  });
});
