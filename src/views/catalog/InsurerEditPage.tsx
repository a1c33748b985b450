import { InsurerEditPage } from './CatalogFormPage';

export default InsurerEditPage;
