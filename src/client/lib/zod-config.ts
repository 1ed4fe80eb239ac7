/**
 * Zod without its code generator. Zod 4 probes whether it may compile parsers with `new Function`; under the app's
 * Content-Security-Policy (no 'unsafe-eval', docs/security.md) that probe is refused and reported as a violation
 * even though zod catches it. The probe runs when the first object schema is built, at module load, and the bundler
 * keeps no order between chunks of one entry, so vite.config.ts puts this file into zod's own chunk: every chunk
 * that builds a schema imports that chunk, which has run this line by then. Imported by stores/stored-session.ts
 * (any one import keeps it in the bundle; the chunk group decides when it runs), not by main.tsx, so the first
 * route does not load zod.
 */
import { z } from 'zod';

z.config({ jitless: true });
