import { InsurerNewPage } from './CatalogFormPage';

export default InsurerNewPage;
