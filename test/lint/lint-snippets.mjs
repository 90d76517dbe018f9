// Lints snippets of code as if each were the file at its path, in one ESLint instance: the
// type-aware rules build the project's program once for all of them, not once per snippet.
// Reads [{code, path}] as JSON on stdin, writes the rule ids of each as JSON on stdout.
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const snippets = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const ids = [];
for (const { code, path } of snippets) {
  const [result] = await eslint.lintText(code, { filePath: path });
  ids.push(result.messages.map((m) => m.ruleId ?? m.message));
}
process.stdout.write(JSON.stringify(ids));
