'use strict';
/**
 * Words that tell how the code was developed instead of what it does. The repository's text
 * (README, docs, code, tests, benchmark output) and its commit messages speak of the product;
 * the history of how a choice was reached lives in git. Used by the commit-msg hook and by
 * test/lint/process-words.test.ts.
 */
const PROCESS_WORDS = [
  { name: 'session number', pattern: /\bstops? \d+/i },
  { name: 'finding number', pattern: /\bfindings? \d+/i },
  { name: 'issue number', pattern: /\bissues? #?\d+|\bissue-?\d+/i },
  { name: 'inspection history', pattern: /\breview(?:s|ed|er|ers|ing)?\b/i },
  { name: 'defect history', pattern: /\bdefects? found\b/i },
];

/** The process words on each line of `text`: [{line (1-based), name, match}]. */
function findProcessWords(text) {
  const hits = [];
  text.split('\n').forEach((line, index) => {
    for (const { name, pattern } of PROCESS_WORDS) {
      const match = pattern.exec(line);
      if (match) hits.push({ line: index + 1, name, match: match[0] });
    }
  });
  return hits;
}

module.exports = { PROCESS_WORDS, findProcessWords };
