import { useCallback, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * A small history router: the server serves the same page for every route, the browser decides
 * what to render. Query parameters hold each page's view state so a URL can be shared or reloaded.
 */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

/** The current location, re-rendering on navigation. */
export function useLocation(): { pathname: string; search: string } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((t) => t + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return { pathname: location.pathname, search: location.search };
}

/**
 * One page's view state in the query string. Setting a value replaces the history entry (typing
 * in a search box must not push one entry per key) unless `push` asks for one of its own, so Back
 * returns to the view before; empty values are dropped from the URL.
 */
export function useQueryState(): [URLSearchParams, (changes: Record<string, string | null>, options?: { push?: boolean }) => void] {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const update = useCallback((changes: Record<string, string | null>, options: { push?: boolean } = {}) => {
    const next = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    navigate(`${location.pathname}${query ? `?${query}` : ''}`, { replace: !options.push });
  }, []);
  return [params, update];
}

/** An in-app link: a plain click navigates without reloading; modified clicks behave as usual. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { onClick, ...rest } = props;
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || props.target) return;
    event.preventDefault();
    navigate(props.href);
  };
  return <a {...rest} onClick={handle} />;
}
