import { useState } from 'react';

// Rendered to HTML on the registry; once the browser client has hydrated it, the switch flips.
export default function Toggle(props: { label: string; on: boolean }) {
  const [on, setOn] = useState(props.on);
  return (
    <div className="react-toggle">
      <button type="button" role="switch" aria-checked={on} onClick={() => setOn(!on)}>
        {props.label}: {on ? 'on' : 'off'}
      </button>
    </div>
  );
}
