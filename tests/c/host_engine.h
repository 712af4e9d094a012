/* host_engine.h: the engine side of the simulated Godot host (godot_host.c): the
 * pretended version, the class database with its objects, and every interface function the
 * host serves through get_proc_address, each checking how the library uses it.
 *
 * get_proc_address records every name asked for ("requested NAME") and refuses names the
 * pretended version does not have ("unknown NAME"), as Godot does.
 */
#ifndef PYBRIDGE_TEST_HOST_ENGINE_H
#define PYBRIDGE_TEST_HOST_ENGINE_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_values.h"

/* -- the pretended engine version -------------------------------------------------------- */

static uint32_t godot_minor;                 /* 3..6, major is 4 */
static char godot_version_string[64];
static int godot_library_token;             /* its address is the GDExtensionClassLibraryPtr */

/* -- fake objects and the class database --------------------------------------------------- */

#define OBJECT_MAGIC 0x4F626A21u /* "Obj!" */
#define MAX_CLASSES 4
#define MAX_METHODS 8
#define MAX_ARGUMENTS 4

struct host_method {
    char name[64];
    HostStringName name_copy; /* the engine keeps its own copy of every name */
    void *userdata;
    GDExtensionClassMethodCall call;
    GDExtensionClassMethodPtrCall ptrcall;
    uint32_t flags;
    int has_return;
    GDExtensionVariantType return_type;
    uint32_t argument_count;
    GDExtensionVariantType argument_types[MAX_ARGUMENTS];
    char argument_names[MAX_ARGUMENTS][32];
};

struct host_class {
    int registered;
    char name[64];
    char parent[64];
    const char *via;
    HostStringName name_copy, parent_copy;
    GDExtensionClassCreationInfo4 info; /* copied: the library may free its struct */
    struct host_method methods[MAX_METHODS];
    int method_count;
};

struct host_object {
    uint32_t magic;
    char native_class[32];
    struct host_class *extension;
    GDExtensionClassInstancePtr instance;
    int instance_set;
    int postinitialized; /* NOTIFICATION_POSTINITIALIZE received through Object.notification */
};

static const char *const native_classes[] = {"Object", "RefCounted", "Node"};
static struct host_class classes[MAX_CLASSES];
static atomic_long objects_live;

static int is_native_class(const char *name)
{
    for (size_t i = 0; i < sizeof native_classes / sizeof *native_classes; i++)
        if (strcmp(native_classes[i], name) == 0)
            return 1;
    return 0;
}

static struct host_class *find_class(const char *name)
{
    for (int i = 0; i < MAX_CLASSES; i++)
        if (classes[i].registered && strcmp(classes[i].name, name) == 0)
            return &classes[i];
    return NULL;
}

static int registered_count(void)
{
    int count = 0;
    for (int i = 0; i < MAX_CLASSES; i++)
        count += classes[i].registered;
    return count;
}

static int check_library(GDExtensionClassLibraryPtr library, const char *who)
{
    if (library != (GDExtensionClassLibraryPtr)&godot_library_token) {
        fail("%s: the library token is not the one given to the entry symbol", who);
        return 0;
    }
    return 1;
}

/* The engine dereferences every pointer of a property description. */
static int check_property(const GDExtensionPropertyInfo *info, const char *who)
{
    if (info == NULL) {
        fail("%s: NULL property description", who);
        return 0;
    }
    if ((unsigned)info->type >= GDEXTENSION_VARIANT_TYPE_VARIANT_MAX)
        fail("%s: property type %u out of range", who, (unsigned)info->type);
    int ok = name_text(info->name, who) != NULL && name_text(info->class_name, who) != NULL;
    if (info->hint_string == NULL) {
        fail("%s: NULL hint_string (Godot would crash)", who);
        ok = 0;
    } else {
        (void)string_block_of(info->hint_string, who);
    }
    return ok;
}

/* -- the interface functions the host serves ------------------------------------------------ */

static atomic_int print_errors;

static void host_get_godot_version(GDExtensionGodotVersion *r_version)
{
    r_version->major = 4;
    r_version->minor = godot_minor;
    r_version->patch = godot_minor == 4 ? 1 : 0;
    r_version->string = godot_version_string;
}

static void host_get_godot_version2(GDExtensionGodotVersion2 *r_version)
{
    memset(r_version, 0, sizeof *r_version);
    r_version->major = 4;
    r_version->minor = godot_minor;
    r_version->hex = 0x040000u | (godot_minor << 8);
    r_version->status = "stable";
    r_version->build = "simulated";
    r_version->hash = "";
    r_version->string = godot_version_string;
}

static void host_print_error(const char *description, const char *function, const char *file,
                             int32_t line, GDExtensionBool editor_notify)
{
    (void)editor_notify;
    check(description != NULL && function != NULL && file != NULL, "print_error: NULL text");
    atomic_fetch_add(&print_errors, 1);
    printf("print_error\t%s\t%s\t%s:%d\n", description ? description : "", function ? function : "",
           file ? file : "", line);
    fflush(stdout);
}

static void host_variant_destroy(GDExtensionVariantPtr self)
{
    if (self == NULL) {
        fail("variant_destroy: NULL");
        return;
    }
    variant_release(self, "variant_destroy");
}

static GDExtensionVariantType host_variant_get_type(GDExtensionConstVariantPtr self)
{
    if (self == NULL) {
        fail("variant_get_type: NULL");
        return GDEXTENSION_VARIANT_TYPE_NIL;
    }
    uint32_t type = ((const HostVariant *)self)->type;
    if (type >= GDEXTENSION_VARIANT_TYPE_VARIANT_MAX) {
        fail("variant_get_type: not a live Variant (type %u)", type);
        return GDEXTENSION_VARIANT_TYPE_NIL;
    }
    return (GDExtensionVariantType)type;
}

static void host_variant_from_string(GDExtensionUninitializedVariantPtr r_variant,
                                     GDExtensionTypePtr value)
{
    HostVariant *variant = r_variant;
    variant_nil(variant);
    variant->type = GDEXTENSION_VARIANT_TYPE_STRING;
    string_copy(&variant->value.string, value, "Variant(String)");
}

static void host_string_from_variant(GDExtensionUninitializedTypePtr r_value,
                                     GDExtensionVariantPtr p_variant)
{
    const HostVariant *variant = p_variant;
    if (variant->type != GDEXTENSION_VARIANT_TYPE_STRING) {
        fail("String(Variant): the Variant holds type %u, not a String", variant->type);
        ((HostString *)r_value)->block = NULL;
        return;
    }
    string_copy(r_value, &variant->value.string, "String(Variant)");
}

static GDExtensionVariantFromTypeConstructorFunc
host_get_variant_from_type_constructor(GDExtensionVariantType type)
{
    if (type == GDEXTENSION_VARIANT_TYPE_STRING)
        return host_variant_from_string;
    fail("get_variant_from_type_constructor: the host only simulates String, not type %u", type);
    return NULL;
}

static GDExtensionTypeFromVariantConstructorFunc
host_get_variant_to_type_constructor(GDExtensionVariantType type)
{
    if (type == GDEXTENSION_VARIANT_TYPE_STRING)
        return host_string_from_variant;
    fail("get_variant_to_type_constructor: the host only simulates String, not type %u", type);
    return NULL;
}

static void host_string_destructor(GDExtensionTypePtr self)
{
    string_release(self, "String destructor");
}

static void host_string_name_destructor(GDExtensionTypePtr self)
{
    name_release(self, "StringName destructor");
}

static GDExtensionPtrDestructor host_variant_get_ptr_destructor(GDExtensionVariantType type)
{
    if (type == GDEXTENSION_VARIANT_TYPE_STRING)
        return host_string_destructor;
    if (type == GDEXTENSION_VARIANT_TYPE_STRING_NAME)
        return host_string_name_destructor;
    fail("variant_get_ptr_destructor: the host only simulates String and StringName, not %u", type);
    return NULL;
}

static GDExtensionInt host_string_new_with_utf8_chars_and_len2(GDExtensionUninitializedStringPtr r_dest,
                                                               const char *contents,
                                                               GDExtensionInt size)
{
    if (r_dest == NULL || (contents == NULL && size > 0) || size < 0) {
        fail("string_new_with_utf8_chars_and_len2: bad arguments");
        return 1;
    }
    return string_from_utf8(r_dest, contents != NULL ? contents : "", (size_t)size) ? 31 : 0;
}

static GDExtensionInt host_string_to_utf8_chars(GDExtensionConstStringPtr self, char *r_text,
                                                GDExtensionInt max_write_length)
{
    char *utf8 = string_to_utf8(self, "string_to_utf8_chars");
    GDExtensionInt length = (GDExtensionInt)strlen(utf8);
    if (r_text != NULL) {
        GDExtensionInt n = length < max_write_length ? length : max_write_length;
        if (n > 0)
            memcpy(r_text, utf8, (size_t)n); /* no terminator, as documented */
    }
    free(utf8);
    return length;
}

static void host_string_name_new_with_latin1_chars(GDExtensionUninitializedStringNamePtr r_dest,
                                                   const char *contents, GDExtensionBool is_static)
{
    HostStringName *name = r_dest;
    if (name == NULL || contents == NULL) {
        fail("string_name_new_with_latin1_chars: NULL argument");
        return;
    }
    if (is_static)
        fail("string_name_new_with_latin1_chars: static names are never freed; not expected here");
    name->block = NULL;
    if (contents[0] == '\0')
        return;
    size_t length = strlen(contents);
    struct name_block *block = malloc(sizeof *block + length + 1);
    if (block == NULL) {
        fail("host out of memory");
        exit(1);
    }
    block->magic = NAME_MAGIC;
    atomic_init(&block->references, 1);
    memcpy(block->text, contents, length + 1);
    atomic_fetch_add(&names_live, 1);
    name->block = block;
}

static GDExtensionObjectPtr host_classdb_construct_object2(GDExtensionConstStringNamePtr class_name)
{
    const char *name = name_text(class_name, "classdb_construct_object2");
    if (name == NULL)
        return NULL;
    if (!is_native_class(name)) {
        fail("classdb_construct_object2: '%s' is not an engine class", name);
        return NULL;
    }
    struct host_object *object = calloc(1, sizeof *object);
    if (object == NULL) {
        fail("host out of memory");
        exit(1);
    }
    object->magic = OBJECT_MAGIC;
    snprintf(object->native_class, sizeof object->native_class, "%s", name);
    atomic_fetch_add(&objects_live, 1);
    return object;
}

static void host_object_set_instance(GDExtensionObjectPtr p_object,
                                     GDExtensionConstStringNamePtr class_name,
                                     GDExtensionClassInstancePtr instance)
{
    struct host_object *object = p_object;
    const char *name = name_text(class_name, "object_set_instance");
    if (object == NULL || object->magic != OBJECT_MAGIC) {
        fail("object_set_instance: not an object");
        return;
    }
    if (name == NULL)
        return;
    struct host_class *extension = find_class(name);
    if (extension == NULL) {
        fail("object_set_instance: '%s' is not a registered extension class", name);
        return;
    }
    if (strcmp(extension->parent, object->native_class) != 0)
        fail("object_set_instance: '%s' extends %s, the object is a %s", name, extension->parent,
             object->native_class);
    if (object->instance_set)
        fail("object_set_instance: the object already has an instance");
    if (instance == NULL)
        fail("object_set_instance: NULL instance");
    object->extension = extension;
    object->instance = instance;
    object->instance_set++;
}

static void register_class(GDExtensionClassLibraryPtr library, GDExtensionConstStringNamePtr class_name,
                           GDExtensionConstStringNamePtr parent_class_name,
                           const GDExtensionClassCreationInfo4 *info, const char *via)
{
    if (!check_library(library, via))
        return;
    const char *name = name_text(class_name, via);
    const char *parent = name_text(parent_class_name, via);
    if (name == NULL || parent == NULL || info == NULL) {
        fail("%s: NULL name or description", via);
        return;
    }
    if (find_class(name) != NULL) {
        fail("%s: '%s' is registered already", via, name);
        return;
    }
    if (!is_native_class(parent) && find_class(parent) == NULL) {
        fail("%s: parent class '%s' does not exist", via, parent);
        return;
    }
    if (info->create_instance_func == NULL || info->free_instance_func == NULL)
        fail("%s: create_instance_func and free_instance_func are required", via);
    if (info->icon_path != NULL)
        (void)string_block_of(info->icon_path, via);
    for (int i = 0; i < MAX_CLASSES; i++) {
        struct host_class *slot = &classes[i];
        if (slot->registered)
            continue;
        memset(slot, 0, sizeof *slot);
        slot->registered = 1;
        snprintf(slot->name, sizeof slot->name, "%s", name);
        snprintf(slot->parent, sizeof slot->parent, "%s", parent);
        slot->via = via;
        slot->info = *info;
        name_copy(&slot->name_copy, class_name, via);
        name_copy(&slot->parent_copy, parent_class_name, via);
        printf("registered\t%s\t%s\t%s\texposed=%d\tvirtual=%d\tabstract=%d\truntime=%d\n", name,
               parent, via, info->is_exposed, info->is_virtual, info->is_abstract, info->is_runtime);
        return;
    }
    fail("%s: the host has no room for another class", via);
}

static void host_register_extension_class4(GDExtensionClassLibraryPtr library,
                                           GDExtensionConstStringNamePtr class_name,
                                           GDExtensionConstStringNamePtr parent_class_name,
                                           const GDExtensionClassCreationInfo4 *info)
{
    register_class(library, class_name, parent_class_name, info, "classdb_register_extension_class4");
}

static void host_register_extension_class5(GDExtensionClassLibraryPtr library,
                                           GDExtensionConstStringNamePtr class_name,
                                           GDExtensionConstStringNamePtr parent_class_name,
                                           const GDExtensionClassCreationInfo5 *info)
{
    register_class(library, class_name, parent_class_name, info, "classdb_register_extension_class5");
}

static void host_register_extension_class_method(GDExtensionClassLibraryPtr library,
                                                 GDExtensionConstStringNamePtr class_name,
                                                 const GDExtensionClassMethodInfo *info)
{
    const char *who = "classdb_register_extension_class_method";
    if (!check_library(library, who))
        return;
    const char *owner = name_text(class_name, who);
    struct host_class *cls = owner != NULL ? find_class(owner) : NULL;
    if (cls == NULL) {
        fail("%s: unknown class", who);
        return;
    }
    if (info == NULL || cls->method_count >= MAX_METHODS) {
        fail("%s: NULL description or too many methods", who);
        return;
    }
    const char *name = name_text(info->name, who);
    if (name == NULL)
        return;
    if (info->call_func == NULL || info->ptrcall_func == NULL)
        fail("%s: %s needs both call_func and ptrcall_func", who, name);
    if (info->has_return_value && !check_property(info->return_value_info, who))
        return;
    if (info->argument_count > MAX_ARGUMENTS) {
        fail("%s: %s has too many arguments for the host", who, name);
        return;
    }
    if (info->argument_count > 0 && (info->arguments_info == NULL || info->arguments_metadata == NULL)) {
        fail("%s: %s has arguments but no descriptions or metadata (Godot would crash)", who, name);
        return;
    }
    if (info->default_argument_count > 0 && info->default_arguments == NULL) {
        fail("%s: %s has default arguments but no values", who, name);
        return;
    }
    struct host_method *method = &cls->methods[cls->method_count++];
    memset(method, 0, sizeof *method);
    snprintf(method->name, sizeof method->name, "%s", name);
    name_copy(&method->name_copy, info->name, who);
    method->userdata = info->method_userdata;
    method->call = info->call_func;
    method->ptrcall = info->ptrcall_func;
    method->flags = info->method_flags;
    method->has_return = info->has_return_value;
    method->return_type = info->has_return_value ? info->return_value_info->type
                                                 : GDEXTENSION_VARIANT_TYPE_NIL;
    method->argument_count = info->argument_count;
    printf("method\t%s\t%s\tflags=%u\treturn=%d", cls->name, name, info->method_flags,
           info->has_return_value ? (int)method->return_type : -1);
    for (uint32_t i = 0; i < info->argument_count; i++) {
        const GDExtensionPropertyInfo *argument = &info->arguments_info[i];
        if (!check_property(argument, who))
            continue;
        method->argument_types[i] = argument->type;
        snprintf(method->argument_names[i], sizeof method->argument_names[i], "%s",
                 name_text(argument->name, who));
        printf("\targ=%s:%d", method->argument_names[i], (int)argument->type);
    }
    printf("\n");
}

static void host_unregister_extension_class(GDExtensionClassLibraryPtr library,
                                            GDExtensionConstStringNamePtr class_name)
{
    const char *who = "classdb_unregister_extension_class";
    if (!check_library(library, who))
        return;
    const char *name = name_text(class_name, who);
    struct host_class *cls = name != NULL ? find_class(name) : NULL;
    if (cls == NULL) {
        fail("%s: '%s' is not registered", who, name != NULL ? name : "?");
        return;
    }
    for (int i = 0; i < cls->method_count; i++)
        name_release(&cls->methods[i].name_copy, who);
    name_release(&cls->name_copy, who);
    name_release(&cls->parent_copy, who);
    cls->registered = 0;
    printf("unregistered\t%s\n", cls->name);
}

static void host_variant_stringify(GDExtensionConstVariantPtr self, GDExtensionStringPtr r_ret)
{
    if (self == NULL || r_ret == NULL) {
        fail("variant_stringify: NULL argument");
        return;
    }
    char *text = stringify(self, "variant_stringify");
    string_from_utf8(r_ret, text, strlen(text)); /* constructs: the storage is uninitialized */
    free(text);
}

/* The one engine method the library may ask for: Object.notification(int, bool). */
static int notification_bind;

static GDExtensionMethodBindPtr host_classdb_get_method_bind(GDExtensionConstStringNamePtr class_name,
                                                             GDExtensionConstStringNamePtr method_name,
                                                             GDExtensionInt hash)
{
    const char *who = "classdb_get_method_bind";
    const char *owner = name_text(class_name, who), *method = name_text(method_name, who);
    if (owner == NULL || method == NULL)
        return NULL;
    printf("method_bind\t%s\t%s\t%lld\n", owner, method, (long long)hash);
    if (strcmp(owner, "Object") == 0 && strcmp(method, "notification") == 0 &&
        hash == PYBRIDGE_GD_OBJECT_NOTIFICATION_HASH)
        return &notification_bind;
    fail("%s: no method %s.%s with hash %lld", who, owner, method, (long long)hash);
    return NULL;
}

static void host_object_method_bind_ptrcall(GDExtensionMethodBindPtr bind, GDExtensionObjectPtr instance,
                                            const GDExtensionConstTypePtr *args, GDExtensionTypePtr r_ret)
{
    struct host_object *object = instance;
    if (bind != &notification_bind) {
        fail("object_method_bind_ptrcall: not a method bind the host gave out");
        return;
    }
    if (object == NULL || object->magic != OBJECT_MAGIC || args == NULL || args[0] == NULL ||
        args[1] == NULL) {
        fail("object_method_bind_ptrcall: no object or no arguments for Object.notification");
        return;
    }
    (void)r_ret; /* notification returns nothing */
    int64_t what;
    uint8_t reversed;
    memcpy(&what, args[0], sizeof what);
    memcpy(&reversed, args[1], sizeof reversed);
    printf("notification\t%lld\t%d\n", (long long)what, reversed);
    check(reversed == 0, "NOTIFICATION_POSTINITIALIZE is sent forwards, not reversed");
    if (what == PYBRIDGE_GD_NOTIFICATION_POSTINITIALIZE) {
        check(object->instance_set == 1, "NOTIFICATION_POSTINITIALIZE came before the instance");
        object->postinitialized++;
    }
}

/* -- get_proc_address ------------------------------------------------------------------------ */

struct served {
    const char *name;
    uint32_t since_minor; /* the 4.x release that introduced it */
    GDExtensionInterfaceFunctionPtr function;
};

#define SERVE(name, since, function) {name, since, (GDExtensionInterfaceFunctionPtr)function}

static const struct served served[] = {
    SERVE("get_godot_version", 1, host_get_godot_version),
    SERVE("get_godot_version2", 5, host_get_godot_version2),
    SERVE("print_error", 1, host_print_error),
    SERVE("variant_destroy", 1, host_variant_destroy),
    SERVE("variant_get_type", 1, host_variant_get_type),
    SERVE("get_variant_from_type_constructor", 1, host_get_variant_from_type_constructor),
    SERVE("get_variant_to_type_constructor", 1, host_get_variant_to_type_constructor),
    SERVE("variant_get_ptr_destructor", 1, host_variant_get_ptr_destructor),
    SERVE("string_new_with_utf8_chars_and_len2", 3, host_string_new_with_utf8_chars_and_len2),
    SERVE("string_to_utf8_chars", 1, host_string_to_utf8_chars),
    SERVE("string_name_new_with_latin1_chars", 2, host_string_name_new_with_latin1_chars),
    SERVE("classdb_construct_object2", 4, host_classdb_construct_object2),
    SERVE("object_set_instance", 1, host_object_set_instance),
    SERVE("variant_stringify", 1, host_variant_stringify),
    SERVE("classdb_get_method_bind", 1, host_classdb_get_method_bind),
    SERVE("object_method_bind_ptrcall", 1, host_object_method_bind_ptrcall),
    SERVE("classdb_register_extension_class4", 4, host_register_extension_class4),
    SERVE("classdb_register_extension_class5", 5, host_register_extension_class5),
    SERVE("classdb_register_extension_class_method", 1, host_register_extension_class_method),
    SERVE("classdb_unregister_extension_class", 1, host_unregister_extension_class),
};

static GDExtensionInterfaceFunctionPtr host_get_proc_address(const char *name)
{
    if (name == NULL) {
        fail("get_proc_address: NULL name");
        return NULL;
    }
    printf("requested\t%s\n", name);
    for (size_t i = 0; i < sizeof served / sizeof *served; i++)
        if (strcmp(served[i].name, name) == 0 && served[i].since_minor <= godot_minor)
            return served[i].function;
    printf("unknown\t%s\n", name); /* Godot logs "Attempt to get non-existent interface function" */
    return NULL;
}

#endif
