// The flooding principal of the gateway benchmark, in a process of its own so its clients' work does not slow the
// measured principal's: argv <url> <token> <seconds> <clients>. Back-to-back tools/call requests; 429s are expected.
import { noopCallBody, noopCallHeaders } from "./noop-call.mjs";

const [url, token, seconds, clients] = process.argv.slice(2);
const headers = noopCallHeaders(token);
const end = performance.now() + Number(seconds) * 1000;
let id = 0;
const counts = {};
await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    while (performance.now() < end) {
      const response = await fetch(url, { method: "POST", headers, body: noopCallBody(++id) });
      await response.text();
      counts[response.status] = (counts[response.status] ?? 0) + 1;
    }
  }),
);
console.log(JSON.stringify(counts));
