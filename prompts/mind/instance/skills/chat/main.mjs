#!/usr/bin/env node
// The default skill: says to the user what the kernel wrote on stdin. Standalone, no dependencies.
if (process.argv.includes('--help')) {
  process.stdout.write('chat: reads a message on stdin and says it to the user on stdout.\nUsage: node main.mjs < message.txt\n');
  process.exit(0);
}
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => process.stdout.write(`${text.trim()}\n`));
