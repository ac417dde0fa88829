import { useState } from 'react';

export default function Counter(props: { name: string }) {
  const [count, setCount] = useState(0);
  return (
    <p className="bench-memory">
      Hello, {props.name}! <button onClick={() => setCount(count + 1)}>{count}</button>
    </p>
  );
}
