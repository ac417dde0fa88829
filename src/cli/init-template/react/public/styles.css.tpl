.{{name}} {
  font-family: system-ui, sans-serif;
  font-weight: 600;
}
