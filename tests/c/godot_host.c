/* godot_host.c: plays Godot's part for libpybridge's GDExtension, as the interface documents it.
 *
 * usage: godot_host LIBRARY GODOT_VERSION DLOPEN_MODE BATTLE_JSON PYBRIDGE_VERSION [unavailable]
 *   GODOT_VERSION  4.6, 4.5 or 4.4 (which the library must serve), or 4.3 (which it must refuse)
 *   DLOPEN_MODE    local: RTLD_NOW | RTLD_LOCAL; deepbind: RTLD_NOW | RTLD_DEEPBIND, as Godot's
 *                  Linux build opens extension libraries
 *   unavailable    the library was built so that Python cannot start: expect the
 *                  runtime_unavailable response and exactly one print_error
 *
 * Like the engine, the host loads the library, calls its entry symbol with a
 * get_proc_address that serves the interface functions by name (recording each name, and
 * refusing names this Godot version does not have), initializes every level, then uses
 * the registered class the way the engine does: create_instance, the Variant call and the
 * typed ptrcall of each method, free_instance, deinitialization. Engine values are real
 * enough to catch misuse: a String is 8 bytes pointing at a reference-counted UTF-32 block,
 * a StringName 8 bytes pointing at a reference-counted name, a Variant 24 bytes with its
 * value at offset 8; every block is counted, so leaks and double frees show.
 *
 * Output, one tab-separated record per line on stdout (tests/test_gdextension.py reads it):
 *   requested NAME / unknown NAME / print_error TEXT / registered ... / method ... /
 *   unregistered NAME / reply LABEL JSON / summary ...
 * Every failed check is a "FAIL: ..." line on stderr; the exit status is 1 if any failed.
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_FILE_FAILURE 2
#include "read_file.h"

/* The same declarations the library is compiled against: they cannot drift apart. */
#include "../../pybridge/ffi/gdextension_api.h"

#define ENTRY_SYMBOL "pybridge_gdextension_init"
#define THREADS 4
#define THREAD_ROUNDS 50

/* -- the pretended engine version -------------------------------------------------------- */

static uint32_t godot_minor;                 /* 3..6, major is 4 */
static char godot_version_string[64];
static int godot_library_token;             /* its address is the GDExtensionClassLibraryPtr */

#include "host_values.h"

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

/* -- driving the class like the engine does ------------------------------------------------ */

static struct host_class *bridge_class;

static struct host_method *method_named(const char *name)
{
    for (int i = 0; bridge_class != NULL && i < bridge_class->method_count; i++)
        if (strcmp(bridge_class->methods[i].name, name) == 0)
            return &bridge_class->methods[i];
    return NULL;
}

static struct host_object *create_object(GDExtensionBool notify_postinitialize)
{
    struct host_object *object =
        bridge_class->info.create_instance_func(bridge_class->info.class_userdata, notify_postinitialize);
    if (object == NULL || object->magic != OBJECT_MAGIC) {
        fail("create_instance_func did not return an object");
        return NULL;
    }
    check(object->extension == bridge_class && object->instance_set == 1,
          "create_instance_func did not attach exactly one PyBridge instance");
    check(strcmp(object->native_class, "RefCounted") == 0, "the object is not a RefCounted");
    /* godot-cpp sends it once the instance is attached, exactly when the engine asks. */
    check(object->postinitialized == (notify_postinitialize ? 1 : 0),
          notify_postinitialize ? "create_instance did not send NOTIFICATION_POSTINITIALIZE once"
                                : "create_instance sent NOTIFICATION_POSTINITIALIZE unasked");
    return object;
}

/* What Object's destructor does for an extension object. */
static void destroy_object(struct host_object *object)
{
    if (object == NULL)
        return;
    object->extension->info.free_instance_func(object->extension->info.class_userdata, object->instance);
    object->magic = DEAD_MAGIC;
    free(object);
    atomic_fetch_sub(&objects_live, 1);
}

/* A Variant call; returns the result's UTF-8, or NULL after a call error. */
static char *call_with_values(struct host_object *object, const char *method_name, int argument_count,
                              HostVariant *values, GDExtensionCallError *r_error)
{
    struct host_method *method = method_named(method_name);
    if (method == NULL) {
        fail("no method %s", method_name);
        return NULL;
    }
    GDExtensionConstVariantPtr pointers[MAX_ARGUMENTS] = {NULL};
    for (int i = 0; i < argument_count; i++)
        pointers[i] = &values[i];
    HostVariant result;
    variant_nil(&result); /* like MethodBind::call: a fresh nil Variant */
    GDExtensionCallError error = {GDEXTENSION_CALL_OK, 0, 0};
    method->call(method->userdata, object->instance, pointers, argument_count, &result, &error);
    *r_error = error;
    char *text = NULL;
    if (error.error == GDEXTENSION_CALL_OK) {
        if (result.type != GDEXTENSION_VARIANT_TYPE_STRING)
            fail("%s returned a Variant of type %u, not a String", method_name, result.type);
        else
            text = string_to_utf8(&result.value.string, "host");
    } else if (result.type != GDEXTENSION_VARIANT_TYPE_NIL) {
        fail("%s failed but changed its return value", method_name);
    }
    variant_release(&result, "host");
    return text;
}

/* A Variant call with String arguments; returns the result's UTF-8 or NULL after an error. */
static char *variant_call(struct host_object *object, const char *method_name, int argument_count,
                          const char *const *arguments, GDExtensionCallError *r_error)
{
    if (argument_count < 0 || argument_count > MAX_ARGUMENTS) {
        fail("the host passes at most %d arguments", MAX_ARGUMENTS);
        return NULL;
    }
    HostVariant values[MAX_ARGUMENTS];
    for (int i = 0; i < argument_count; i++) {
        variant_nil(&values[i]);
        values[i].type = GDEXTENSION_VARIANT_TYPE_STRING;
        string_from_utf8(&values[i].value.string, arguments[i], strlen(arguments[i]));
    }
    char *text = call_with_values(object, method_name, argument_count, values, r_error);
    for (int i = 0; i < argument_count; i++)
        variant_release(&values[i], "host");
    return text;
}

/* A typed call: the String result is pre-filled, as an initialized return value may be. */
static char *typed_call(struct host_object *object, const char *method_name, const char *argument)
{
    struct host_method *method = method_named(method_name);
    if (method == NULL) {
        fail("no method %s", method_name);
        return NULL;
    }
    HostString request, result;
    GDExtensionConstTypePtr pointers[1] = {&request};
    if (argument != NULL)
        string_from_utf8(&request, argument, strlen(argument));
    string_from_utf8(&result, "stale", 5); /* the callee must release it, not leak it */
    method->ptrcall(method->userdata, object->instance, argument != NULL ? pointers : NULL, &result);
    char *text = string_to_utf8(&result, "host");
    string_release(&result, "host");
    if (argument != NULL)
        string_release(&request, "host");
    return text;
}

static void print_reply(const char *label, const char *text)
{
    printf("reply\t%s\t%s\n", label, text != NULL ? text : "(none)");
    fflush(stdout);
}

static void expect_reply(const char *label, char *text, const char *needle)
{
    print_reply(label, text);
    if (text == NULL || strstr(text, needle) == NULL)
        fail("%s: expected %s in %.300s", label, needle, text != NULL ? text : "(none)");
    free(text);
}

static void expect_call_error(const char *label, struct host_object *object, const char *method,
                              int count, const char *const *arguments, GDExtensionCallErrorType error,
                              int32_t expected)
{
    GDExtensionCallError result;
    char *text = variant_call(object, method, count, arguments, &result);
    printf("call_error\t%s\t%d\t%d\t%d\n", label, (int)result.error, result.argument, result.expected);
    if (text != NULL || result.error != error || result.expected != expected)
        fail("%s: expected call error %d (expected %d), got %d (expected %d)", label, (int)error,
             expected, (int)result.error, result.expected);
    free(text);
}

/* call_json with one value of another type, as GDScript passes it (a Variant call passes
   arguments as they are). Prints a call_error or a reply line labelled `label`. */
static void call_json_with(struct host_object *object, const char *label, HostVariant *value)
{
    GDExtensionCallError error;
    char *text = call_with_values(object, "call_json", 1, value, &error);
    if (error.error != GDEXTENSION_CALL_OK)
        printf("call_error\t%s\t%d\t%d\t%d\n", label, (int)error.error, error.argument, error.expected);
    else
        print_reply(label, text);
    free(text);
    variant_release(value, "host");
}

/* What the engine converts to a String (int, float, bool, Dictionary...) is converted the
   engine's way; nil and objects, which it does not convert, are call errors. */
static void expect_conversions(struct host_object *object)
{
    HostVariant value;
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_INT;
    value.value.integer = 7;
    call_json_with(object, "from_int", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_FLOAT;
    value.value.real = 2.5;
    call_json_with(object, "from_float", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_BOOL;
    value.value.boolean = 1;
    call_json_with(object, "from_bool", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_DICTIONARY;
    value.value.dictionary = dictionary_new();
    dictionary_set(value.value.dictionary, "op", "version", 0);
    dictionary_set(value.value.dictionary, "id", NULL, 9);
    call_json_with(object, "from_dictionary", &value);
    variant_nil(&value);
    call_json_with(object, "from_nil", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_OBJECT;
    value.value.object = object;
    call_json_with(object, "from_object", &value);
}

struct worker {
    pthread_t thread;
    struct host_object *object;
    int index;
    int bad;
};

static void *work(void *arg)
{
    struct worker *self = arg;
    char request[64];
    for (int i = 0; i < THREAD_ROUNDS; i++) {
        snprintf(request, sizeof request, "{\"op\":\"version\",\"id\":%d}", self->index * 1000 + i);
        char expected_id[32];
        snprintf(expected_id, sizeof expected_id, "\"id\":%d,", self->index * 1000 + i);
        char *text;
        if (i % 2 == 0) {
            text = typed_call(self->object, "call_json", request);
        } else {
            GDExtensionCallError error;
            const char *arguments[1] = {request};
            text = variant_call(self->object, "call_json", 1, arguments, &error);
        }
        if (text == NULL || strstr(text, "\"ok\":true") == NULL || strstr(text, expected_id) == NULL)
            self->bad++;
        free(text);
    }
    return NULL;
}

static void play_the_battle(struct host_object *first, struct host_object *second,
                            const char *battle_path)
{
    /* Open the demo battle through the Variant call, on the first object. */
    char *battle = read_file(battle_path);
    char *open = malloc(strlen(battle) + 64);
    sprintf(open, "{\"op\":\"open\",\"id\":1,\"battle\":%s}", battle);
    free(battle);
    GDExtensionCallError error;
    const char *arguments[1] = {open};
    char *opened = variant_call(first, "call_json", 1, arguments, &error);
    free(open);
    print_reply("open", opened);
    char session[32] = "";
    const char *at = opened != NULL ? strstr(opened, "\"session\":\"") : NULL;
    if (at == NULL || sscanf(at + strlen("\"session\":\""), "%31[^\"]", session) != 1) {
        fail("open: no session in the reply");
        free(opened);
        return;
    }
    free(opened);

    char request[256];
    /* Targets through ptrcall, on the first object. */
    snprintf(request, sizeof request,
             "{\"op\":\"targets\",\"id\":2,\"session\":\"%s\",\"card\":\"h1\"}", session);
    expect_reply("targets", typed_call(first, "call_json", request),
                 "\"candidates\":[\"goblin\",\"orc\",\"shaman\"]");
    /* Strike at the orc through the Variant call on the second object: the session belongs
       to the runtime, not to the object. 6 damage, 4 blocked: 34 HP -> 32 HP. */
    snprintf(request, sizeof request,
             "{\"op\":\"play\",\"id\":3,\"session\":\"%s\",\"card\":\"h1\",\"target\":\"orc\"}",
             session);
    arguments[0] = request;
    expect_reply("play", variant_call(second, "call_json", 1, arguments, &error),
                 "\"hp_before\":34,\"hp_after\":32");
    /* The authoring operations a game's own editor asks for, and the turn loop. */
    snprintf(request, sizeof request,
             "{\"op\":\"describe\",\"id\":5,\"session\":\"%s\",\"card\":\"h2\"}", session);
    expect_reply("describe", typed_call(first, "call_json", request), "\"text\":");
    expect_reply("lint",
                 typed_call(first, "call_json",
                            "{\"op\":\"lint\",\"id\":6,\"document\":{\"format\":\"pybridge/battle@1\"}}"),
                 "\"diagnostics\":");
    snprintf(request, sizeof request, "{\"op\":\"end_turn\",\"id\":7,\"session\":\"%s\"}", session);
    expect_reply("end_turn", typed_call(first, "call_json", request), "\"ok\":true");
    snprintf(request, sizeof request, "{\"op\":\"close\",\"id\":4,\"session\":\"%s\"}", session);
    expect_reply("close", typed_call(second, "call_json", request), "\"ok\":true");
    /* Which interpreter answers, with its home and module search path. */
    expect_reply("protocol_version", typed_call(first, "call_json", "{\"op\":\"version\",\"id\":8}"),
                 "\"python\":");

    /* Non-ASCII text both ways: the request id comes back (JSON-escaped) as sent. */
    expect_reply("unicode",
                 typed_call(first, "call_json",
                            "{\"op\":\"version\",\"id\":\"\xc3\xa9\xe2\x86\x92\xf0\x9f\x98\x80\"}"),
                 "\"id\":\"\\u00e9\\u2192\\ud83d\\ude00\"");
    expect_reply("not_json", typed_call(first, "call_json", "not json"), "\"code\":\"bad_json\"");
    expect_reply("empty", typed_call(first, "call_json", ""), "\"code\":\"bad_json\"");
    /* Godot never passes NULL arguments to a ptrcall; if it did, the answer is an error. */
    expect_reply("null_args", typed_call(first, "call_json", NULL), "\"code\":\"null_request\"");

    /* Several engine threads calling at once, through both call paths. */
    struct worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (struct worker){.object = i % 2 ? second : first, .index = i + 1, .bad = 0};
        pthread_create(&workers[i].thread, NULL, work, &workers[i]);
    }
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(workers[i].thread, NULL);
        bad += workers[i].bad;
    }
    printf("threads\t%d\t%d\tbad=%d\n", THREADS, THREAD_ROUNDS, bad);
    check(bad == 0, "threaded calls got wrong replies");
}

static int parse_version(const char *text)
{
    if (strcmp(text, "4.3") == 0 || strcmp(text, "4.4") == 0 || strcmp(text, "4.5") == 0 ||
        strcmp(text, "4.6") == 0) {
        godot_minor = (uint32_t)(text[2] - '0');
        snprintf(godot_version_string, sizeof godot_version_string,
                 "Godot Engine v4.%u%s.stable.simulated", godot_minor, godot_minor == 4 ? ".1" : "");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int unavailable = argc == 7 && strcmp(argv[6], "unavailable") == 0;
    if ((argc != 6 && !unavailable) || !parse_version(argv[2]) ||
        (strcmp(argv[3], "local") != 0 && strcmp(argv[3], "deepbind") != 0)) {
        fprintf(stderr,
                "usage: %s LIBRARY 4.3|4.4|4.5|4.6 local|deepbind BATTLE_JSON PYBRIDGE_VERSION "
                "[unavailable]\n",
                argv[0]);
        return 2;
    }
    int mode = RTLD_NOW | (strcmp(argv[3], "deepbind") == 0 ? RTLD_DEEPBIND : RTLD_LOCAL);
    void *library = dlopen(argv[1], mode);
    if (library == NULL) {
        fprintf(stderr, "FAIL: %s\n", dlerror());
        return 1;
    }
    GDExtensionInitializationFunction entry;
    *(void **)&entry = dlsym(library, ENTRY_SYMBOL);
    if (entry == NULL) {
        fprintf(stderr, "FAIL: no entry symbol %s\n", ENTRY_SYMBOL);
        return 1;
    }

    GDExtensionInitialization initialization;
    poison(&initialization, sizeof initialization);
    GDExtensionBool accepted =
        entry(host_get_proc_address, (GDExtensionClassLibraryPtr)&godot_library_token, &initialization);
    printf("entry\t%d\n", accepted);
    if (godot_minor < 4) {
        /* Too old: the library must say no, say why, and register nothing. */
        check(!accepted, "the library accepted Godot 4.3");
        check(atomic_load(&print_errors) >= 1, "the library refused Godot 4.3 without an error");
        check(registered_count() == 0, "the library registered a class on Godot 4.3");
        printf("summary\tstrings_live=%ld\tnames_live=%ld\tobjects_live=%ld\tprint_errors=%d\n",
               atomic_load(&strings_live), atomic_load(&names_live), atomic_load(&objects_live),
               atomic_load(&print_errors));
        return atomic_load(&failures) == 0 ? 0 : 1;
    }
    if (!accepted) {
        fprintf(stderr, "FAIL: the entry symbol refused Godot 4.%u\n", godot_minor);
        return 1;
    }
    check(initialization.minimum_initialization_level == GDEXTENSION_INITIALIZATION_SCENE,
          "minimum_initialization_level is not SCENE");
    uintptr_t initialize_bits, deinitialize_bits;
    memcpy(&initialize_bits, &initialization.initialize, sizeof initialize_bits);
    memcpy(&deinitialize_bits, &initialization.deinitialize, sizeof deinitialize_bits);
    if (initialize_bits == 0 || deinitialize_bits == 0 || is_poison((void *)initialize_bits) ||
        is_poison((void *)deinitialize_bits)) {
        fprintf(stderr, "FAIL: initialize or deinitialize not set\n");
        return 1;
    }

    /* Up through the levels, as the engine does at start-up. */
    for (int level = GDEXTENSION_INITIALIZATION_CORE; level < GDEXTENSION_MAX_INITIALIZATION_LEVEL;
         level++) {
        initialization.initialize(initialization.userdata, (GDExtensionInitializationLevel)level);
        int expected = level >= GDEXTENSION_INITIALIZATION_SCENE ? 1 : 0;
        printf("initialized\t%d\tclasses=%d\n", level, registered_count());
        if (registered_count() != expected)
            fail("after initializing level %d, %d classes are registered (expected %d)", level,
                 registered_count(), expected);
    }
    bridge_class = find_class("PyBridge");
    if (bridge_class == NULL) {
        fprintf(stderr, "FAIL: no class PyBridge\n");
        return 1;
    }
    check(strcmp(bridge_class->parent, "RefCounted") == 0, "PyBridge does not extend RefCounted");
    check(strcmp(bridge_class->via, godot_minor >= 5 ? "classdb_register_extension_class5"
                                                     : "classdb_register_extension_class4") == 0,
          "PyBridge was registered through the wrong function for this version");
    struct host_method *call_json = method_named("call_json"), *version = method_named("version");
    check(call_json != NULL && call_json->argument_count == 1 &&
              call_json->argument_types[0] == GDEXTENSION_VARIANT_TYPE_STRING &&
              call_json->has_return && call_json->return_type == GDEXTENSION_VARIANT_TYPE_STRING,
          "call_json is not (String) -> String");
    check(version != NULL && version->argument_count == 0 && version->has_return &&
              version->return_type == GDEXTENSION_VARIANT_TYPE_STRING,
          "version is not () -> String");
    if (call_json == NULL || version == NULL)
        return 1;

    struct host_object *first = create_object(1), *second = create_object(0);
    if (first == NULL || second == NULL)
        return 1;
    check(first->instance != second->instance, "two objects share one instance");

    GDExtensionCallError error;
    const char *expected_version = argv[5];
    char *text = variant_call(first, "version", 0, NULL, &error);
    print_reply("version_call", text);
    check(text != NULL && strcmp(text, expected_version) == 0, "version() through call is wrong");
    free(text);
    text = typed_call(second, "version", NULL);
    print_reply("version_ptrcall", text);
    check(text != NULL && strcmp(text, expected_version) == 0, "version() through ptrcall is wrong");
    free(text);

    const char *no_arguments[2] = {"{}", "{}"};
    expect_call_error("too_few", first, "call_json", 0, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS, 1);
    expect_call_error("too_many", first, "call_json", 2, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 1);
    expect_call_error("version_too_many", first, "version", 1, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 0);
    expect_conversions(first);

    if (unavailable) {
        const char *request = "{\"op\":\"version\",\"id\":1}";
        const char *arguments[1] = {request};
        expect_reply("unavailable_call", variant_call(first, "call_json", 1, arguments, &error),
                     "\"code\":\"runtime_unavailable\"");
        expect_reply("unavailable_ptrcall", typed_call(second, "call_json", request),
                     "\"code\":\"runtime_unavailable\"");
        expect_reply("unavailable_again", typed_call(first, "call_json", request),
                     "\"code\":\"runtime_unavailable\"");
        check(atomic_load(&print_errors) == 1, "the failed start was not reported exactly once");
    } else {
        play_the_battle(first, second, argv[4]);
        check(atomic_load(&print_errors) == 0, "print_error was called although Python started");
    }

    destroy_object(first);
    destroy_object(second);

    /* Down again, editor first. */
    for (int level = GDEXTENSION_MAX_INITIALIZATION_LEVEL - 1; level >= GDEXTENSION_INITIALIZATION_CORE;
         level--) {
        initialization.deinitialize(initialization.userdata, (GDExtensionInitializationLevel)level);
        int expected = level > GDEXTENSION_INITIALIZATION_SCENE ? 1 : 0;
        printf("deinitialized\t%d\tclasses=%d\n", level, registered_count());
        if (registered_count() != expected)
            fail("after deinitializing level %d, %d classes are registered (expected %d)", level,
                 registered_count(), expected);
    }

    long strings = atomic_load(&strings_live), names = atomic_load(&names_live),
         objects = atomic_load(&objects_live);
    printf("summary\tstrings_live=%ld\tnames_live=%ld\tobjects_live=%ld\tprint_errors=%d\n", strings,
           names, objects, atomic_load(&print_errors));
    check(strings == 0, "Strings leaked");
    check(names == 0, "StringNames leaked");
    check(objects == 0, "objects leaked");
    check(atomic_load(&dictionaries_live) == 0, "Dictionaries leaked");
    return atomic_load(&failures) == 0 ? 0 : 1;
}
