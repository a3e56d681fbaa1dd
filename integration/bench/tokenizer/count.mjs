// Counts tokens with the o200k_base encoding (GPT-4o and later), offline.
// Input on stdin: a JSON array of strings. Output on stdout: a JSON array of
// token counts, one per string, in order. sous's benchmark harness
// (integration/bench) runs it once per figure so node starts once.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const texts = JSON.parse(Buffer.concat(chunks).toString('utf8'));
if (!Array.isArray(texts)) {
  process.stderr.write('count.mjs: stdin must be a JSON array of strings\n');
  process.exit(2);
}
process.stdout.write(JSON.stringify(texts.map((t) => countTokens(String(t)))));
