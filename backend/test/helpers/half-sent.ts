// A request whose headers and first half of the body go out now and the rest when the test says:
// a request the server is in the middle of reading, for as long as the test needs.
import { request } from 'node:http';

export function halfSentRequest(url: string, method: string, headers: Record<string, string>, body: Buffer | string) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const req = request(url, { method, headers: { 'content-type': 'application/json', ...headers, 'content-length': String(bytes.length) } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
  });
  const half = Math.floor(bytes.length / 2);
  req.write(bytes.subarray(0, half));
  return { answer, finish: () => req.end(bytes.subarray(half)) };
}
