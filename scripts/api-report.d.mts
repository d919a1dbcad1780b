/** A package whose public API is reported: its name, folder (relative to the repository or absolute) and report file. */
export interface ApiReportPackage {
  name: string;
  dir: string;
  report: string;
}
export declare const PACKAGES: readonly ApiReportPackage[];
/** Every entry point of the package in `pkgDir`: its import specifier and its declaration file. */
export declare function entryPoints(pkgDir: string): Array<{ specifier: string; file: string }>;
/** The report of one package, as Markdown. */
export declare function apiReport(pkg: ApiReportPackage): string;
/** Writes (or with `check`, compares) every report; returns the names of the packages whose report differs. */
export declare function writeReports(options?: { check?: boolean }): string[];
