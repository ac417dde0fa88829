export default () => '<div class="static-banner">Shared components, isolated tenants.</div>';
