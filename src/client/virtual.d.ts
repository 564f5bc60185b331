/** The icon sprite's file name under assets/ (icons-<hash>.svg), from vite.config.ts. */
declare module 'virtual:palaver-icons' {
  const fileName: string;
  export default fileName;
}
