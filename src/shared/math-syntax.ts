/**
 * The options of micromark-extension-math (and remark-math) every reader of page markdown uses: `$$…$$` is math, a
 * single `$` is not (prices in prose). Apart from shared/math.ts, so that readers load no KaTeX for it.
 */
export const MATH_SYNTAX = { singleDollarTextMath: false } as const;
