/** Types of qwik2.mjs, for the TypeScript that imports it (vite.config.ts, the consumer test). */
export declare function qwik2Specifier(specifier: string): string;
export declare function qwik2Source(text: string): string;
export declare function writeQwik2Declarations(from: string, to: string): void;
