import { useState } from 'preact/hooks';

// Rendered to HTML on the registry; once the browser client has hydrated it, the buttons count.
export default function Counter(props: { label: string; start: number }) {
  const [count, setCount] = useState(props.start);
  return (
    <div class="esm-counter">
      <span>
        {props.label}: <output>{count}</output>
      </span>{' '}
      <button type="button" aria-label="less" onClick={() => setCount(count - 1)}>
        −
      </button>
      <button type="button" aria-label="more" onClick={() => setCount(count + 1)}>
        +
      </button>
    </div>
  );
}
