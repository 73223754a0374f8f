// npm run schema:dump — rewrites supabase/schema.sql: the private schema as the migrations leave
// it, dumped from a throwaway cluster. Run it after adding a migration and commit the result;
// tests/schema/schema-dump.test.ts fails while the file and the migrations disagree.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './lib/database.mjs';
import { withMigratedDatabase } from './lib/scratch-database.mjs';
import { dumpSchema, SCHEMA_FILE } from './lib/schema-dump.mjs';

await withMigratedDatabase((url) => fs.writeFileSync(path.join(root, SCHEMA_FILE), dumpSchema(url)));
console.log(`wrote ${SCHEMA_FILE}`);
