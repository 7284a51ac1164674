import { useEffect, useState } from 'react';

/** The renderer's clock, ticking once a second while `running` (a wait, a pause being timed). */
export function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}
