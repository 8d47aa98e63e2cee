import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../lib/errors';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a request when its inputs (primitive values) change and aborts the previous one.
 * Data from the previous inputs stays visible until the new answer arrives.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  inputs: readonly (string | number | boolean | null | undefined)[],
): AsyncState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  const key = JSON.stringify(inputs);

  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    const ctrl = new AbortController();
    loadRef.current(ctrl.signal).then(
      (data) => {
        if (!ctrl.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!isAbort(error) && !ctrl.signal.aborted) {
          setState((prev) => ({ data: prev.data, error, loading: false }));
        }
      },
    );
    return () => ctrl.abort();
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}
