// The parts of de.json (scripts/vite-text-parts.ts): shell namespaces, and all others.
declare module 'virtual:texts/de-shell' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module 'virtual:texts/de-app' {
  const texts: Record<string, unknown>;
  export default texts;
}
