// dependency-cruiser reads the module graph for scripts/check-architecture.ts (which holds the rules and their
// baseline): TypeScript paths resolved through tsconfig, type-only imports kept and marked as such.
module.exports = {
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^\\.next/" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
