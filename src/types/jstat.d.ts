/** The few jStat functions Dash uses (the package ships no type declarations). */
declare module 'jstat' {
  interface JStatStatic {
    studentt: { inv(p: number, dof: number): number };
    centralF: { cdf(x: number, df1: number, df2: number): number };
    normal: { inv(p: number, mean: number, std: number): number };
  }
  const pkg: { jStat: JStatStatic };
  export default pkg;
}
