// A fake System One judge for the agent harness (test-only): real HTTP on 127.0.0.1, `POST /v1/systemone`.
// jev_permit's questions are answered from the call in the request's state: a shell command that deletes
// (`rm -rf`) is judged destructive, not asked for and planted (so the permission policy denies it); any other
// call read-only and wanted. Other questions get well-formed middling answers. Every request is counted.
import http from 'node:http';

const choice = (option, options, top = 0.97) => ({
  type: 'choice',
  choice: option,
  confidence: top,
  probabilities: Object.fromEntries(options.map((o) => [o, o === option ? top : (1 - top) / (options.length - 1)])),
});

function answer(id, question, deleting) {
  if (question.type === 'noul') {
    if (id === 'serves_request') return { type: 'noul', noul: deleting ? 0.03 : 0.95 };
    if (id === 'planted_purpose') return { type: 'noul', noul: deleting ? 0.96 : 0.02 };
    if (id === 'exfiltration') return { type: 'noul', noul: 0.02 };
    return { type: 'noul', noul: 0.5 };
  }
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria);
    const wanted = id === 'effect' ? (deleting ? 'destructive' : 'read_only') : options[0];
    return choice(options.includes(wanted) ? wanted : options[0], options);
  }
  const n = question.criteria.length;
  const probabilities = Object.fromEntries(question.criteria.map((_, i) => [String(i), i === n - 1 ? 0.9 : 0.1 / Math.max(1, n - 1)]));
  const legend = Object.fromEntries(question.criteria.map((c, i) => [String(i), c]));
  return { type: 'score', score: n - 1, confidence: 0.9, probabilities, legend };
}

/** Starts the judge; resolves to { url, count(), states() (each request's state as JSON text), close() }. */
export async function startFakeJudge() {
  let count = 0;
  /** The state of each request, as JSON text. */
  const states = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/v1/systemone')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      count++;
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not JSON"}');
        return;
      }
      states.push(JSON.stringify(body.state ?? ''));
      const deleting = /rm\s+-rf/.test(states.at(-1));
      const questions = body.questions ?? {};
      const answers = Object.fromEntries(Object.entries(questions).map(([id, q]) => [id, answer(id, q, deleting)]));
      const out = { model: body.model ?? 'fake-judge', usage: { input_tokens: 100, output_tokens: Object.keys(questions).length }, answers };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    count: () => count,
    states: () => [...states],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
