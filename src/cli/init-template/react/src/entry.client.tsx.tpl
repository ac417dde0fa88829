// The view: a React function component of the model from the server logic. The registry renders
// it with react-dom/server; the browser then hydrates that HTML, and the button starts counting.
import { useState } from 'react';

interface Props {
  name: string;
  staticPath: string;
}

export default function Greeting(props: Props) {
  const [count, setCount] = useState(0);
  return (
    <div className="{{name}}">
      <link rel="stylesheet" href={`${props.staticPath}public/styles.css`} />
      <p>Hello, {props.name}!</p>
      <button type="button" onClick={() => setCount(count + 1)}>
        Clicked {count} times
      </button>
    </div>
  );
}
