// CSS imports are bundled by Vite; this tells tsc they are modules.
declare module '*.css';
