// The view: a Preact function component of the model from the server logic. The registry renders
// it to HTML; the browser then hydrates that HTML, and the button starts counting.
import { useState } from 'preact/hooks';

interface Props {
  name: string;
  staticPath: string;
}

export default function Greeting(props: Props) {
  const [count, setCount] = useState(0);
  return (
    <div class="{{name}}">
      <link rel="stylesheet" href={`${props.staticPath}public/styles.css`} />
      <p>Hello, {props.name}!</p>
      <button type="button" onClick={() => setCount(count + 1)}>
        Clicked {count} times
      </button>
    </div>
  );
}
