import fs from 'node:fs';
import path from 'node:path';
import { compileContracts, GENERATED_DIR } from '../../scripts/compile-contracts';

describe('generated contract modules', () => {
  it('when contracts/ is recompiled with solc, then src/chain/generated matches the committed files', () => {
    const files = compileContracts();
    expect([...files.keys()].sort()).toEqual(fs.readdirSync(GENERATED_DIR).sort());
    for (const [name, content] of files) {
      // A mismatch means a .sol changed without `npm run build:contracts`.
      expect({ name, content: fs.readFileSync(path.join(GENERATED_DIR, name), 'utf8') }).toEqual({ name, content });
    }
  });
});
